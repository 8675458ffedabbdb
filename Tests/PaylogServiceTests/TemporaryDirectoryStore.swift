import PaylogPresentation
import PaylogWorkflow
import TestSupport

/// A second, separate store to run the CLI's code path on for comparison.
struct TemporaryDirectoryStore {
    let directory = TemporaryDirectory("paylog-reference")

    /// `paylog ingest --json`'s output for `lines` on a fresh store.
    func ingestReport(_ lines: [String]) async throws -> String {
        defer { directory.remove() }
        let store = try PaymentWorkflow.openStore(at: directory.path)
        defer { store.close() }
        let report = await PaymentWorkflow(store: store, actor: "cli").ingest(lines: lines)
        return try JSONText.encode(encodable: report)
    }
}
