import Foundation
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

/// A fresh store with `lines` recorded: what several suites build a history in, then read back.
enum RecordedDay {
    /// Records `lines` into a new store in a temporary directory (every line must be accepted), hands `body` the
    /// workflow, and removes the store after.
    static func with<T>(_ lines: [String], _ body: (PaymentWorkflow) async throws -> T) async throws -> T {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let report = await workflow.ingest(lines: lines)
        #expect(report.rejected == 0, "\(report.errors)")
        return try await body(workflow)
    }
}
