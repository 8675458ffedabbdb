import Foundation
import PaylogStore
import Synchronization
import Testing
import TestSupport

@testable import PaylogWorkflow

/// After a batch fails to commit, no later batch may be recorded: a later, smaller one may fit where the failed one
/// did not (freed pages on a full disk), and the log would then hold later lines without earlier ones.
@Suite("Ingest stops at a failed commit")
struct IngestHaltTests {
    @Test("the batch after a failed one is never recorded, and the report names the first line not recorded")
    func stops() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try PaymentWorkflow.openStore(at: dir.path)
        defer { store.close() }
        let lines = try DemoDay(payments: 300, seed: 5).plan().lines
        #expect(lines.count > 1_000)
        // Batch 1 records (each line accepted), batch 2 fails to commit, any later one would record again.
        let calls = Mutex<[[Int]]>([])
        let report = await PaymentWorkflow(store: store, actor: "t").ingest(
            lines: lines, defaultKind: nil, batchSize: 300, observingBatches: nil
        ) { batch, whenRecorded in
            let numbers = batch.map(\.number)
            let call = calls.withLock { $0.append(numbers); return $0.count }
            whenRecorded()
            if call == 2 { return RecordedBatch(results: [], failure: (line: numbers[0], error: .closed)) }
            return RecordedBatch(results: numbers.map { ($0, .success(AppendedEvents(paymentID: "p\($0)", versions: 1...1))) })
        }
        let recorded = calls.withLock { $0 }
        #expect(recorded.count == 2, "batches after the failed one: \(recorded.count - 2)")
        #expect(report.stoppedAtLine == recorded.last?.first)
        #expect(report.storeError == EventStoreError.closed.description)
        #expect(report.accepted == recorded.first?.count)
        #expect(report.rejected == 0 && report.eventsAppended == recorded.first?.count)
    }
}
