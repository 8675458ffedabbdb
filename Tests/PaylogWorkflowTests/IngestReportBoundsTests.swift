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

    @Test("lines rejected when their batch is recorded, before lines rejected as they are read: still the first 1,000 listed")
    func boundedAcrossBatches() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try PaymentWorkflow.openStore(at: dir.path)
        defer { store.close() }
        // 600 callbacks no payment answers (rejected by the writer, batch by batch), then 900 lines of bad JSON
        // (rejected as they are read, before most of the callbacks' batches come back).
        let callbacks = (1...600).map { #"{"kind":"callback","at":"2026-11-22T09:00:00Z","url":"myshop://ok?smp-status=success&smp-tx-code=T\#($0)"}"# }
        let lines = callbacks + Array(repeating: "not json", count: 900)
        let report = await PaymentWorkflow(store: store, actor: "t").ingest(lines: lines, batchSize: 100)
        #expect(report.rejected == 1_500 && report.errorsOmitted == 500)
        #expect(report.errors.map(\.line) == Array(1...1_000))
        #expect(report.errors.first?.message.contains("not json") == false)
    }
}
