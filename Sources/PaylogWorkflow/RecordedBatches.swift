import Synchronization

/// The number of the last ingest batch the writer has finished recording (batches are numbered from 1 as they are
/// handed on, and recorded in that order), read by the parsing side after every line
/// (``PaymentWorkflow/ingest(lines:defaultKind:batchSize:)``) to cut the next batch as soon as the writer has
/// nothing left to do.
///
/// The writer marks a batch at the end of its write session's body, on the writer thread: marking it from the task
/// that awaited the session would wait for a free thread of the concurrency pool, which the parsing loop and
/// other work may hold. Marking is idempotent, so a session body run again marks the same number.
final class RecordedBatches: Sendable {
    private let last = Atomic<Int>(0)

    /// Marks batch `number` (and so every batch before it) recorded.
    func mark(_ number: Int) { last.store(number, ordering: .releasing) }

    /// The number of the last batch recorded; 0 before the first.
    var lastRecorded: Int { last.load(ordering: .acquiring) }
}
