import Foundation
import PaylogStore
import Synchronization
import Testing
import TestSupport
@testable import PaylogWorkflow

/// A report lists a bounded number of reasons, however many lines are rejected.
@Suite("Ingest report bounds")
struct IngestReportBoundsTests {
    @Test("1,500 rejected lines: 1,000 reasons listed in line order, 500 counted as omitted")
    func bounded() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try PaymentWorkflow.openStore(at: dir.path)
        defer { store.close() }
        let report = await PaymentWorkflow(store: store, actor: "t").ingest(lines: Array(repeating: "{}", count: 1_500))
        #expect(report.lines == 1_500 && report.rejected == 1_500 && report.accepted == 0)
        #expect(report.errors.count == IngestReport.maximumListedErrors)
        #expect(report.errors.map(\.line) == Array(1...1_000))
        #expect(report.errorsOmitted == 500)
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        #expect(json["errors_omitted"] as? Int == 500)
    }
}
