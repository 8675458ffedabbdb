import Synchronization

/// How many ingest batches were handed to the writer and are not yet recorded, read by the parsing side after
/// every line (``PaymentWorkflow/ingest(lines:defaultKind:batchSize:)``) to cut the next batch when the writer
/// has nothing left to do.
final class BatchCounter: Sendable {
    private let count = Atomic<Int>(0)

    /// Adds `delta` (1 when a batch is handed on, -1 when it is recorded).
    func add(_ delta: Int) { count.add(delta, ordering: .releasing) }

    /// True when every batch handed on is recorded.
    var isZero: Bool { count.load(ordering: .acquiring) == 0 }
}
