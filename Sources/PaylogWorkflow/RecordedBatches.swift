import Synchronization

/// The number of the last ingest batch the writer has finished recording (batches are numbered from 1 as they are
/// handed on, and recorded in that order), read by the parsing side after every line
/// (``PaymentWorkflow/ingest(lines:defaultKind:batchSize:)``) to cut the next batch as soon as the writer has
/// nothing left to do.
///
/// The writer marks a batch at the end of its write session's body, on the writer thread: marking it from the task
/// that awaited the session would wait for a free thread of the concurrency pool, which the parsing loop and
/// other work may hold. Marking is idempotent, so a session body run again marks the same number.
///
/// It also carries the ingest's halt: set when a batch's commit failed, after which no later batch is recorded.
final class RecordedBatches: Sendable {
    private let last = Atomic<Int>(0)
    private let halted = Atomic<Bool>(false)

    /// Stops the ingest: no batch is recorded after this.
    func halt() { halted.store(true, ordering: .releasing) }

    /// Whether a batch failed to commit, so that nothing more may be recorded.
    var isHalted: Bool { halted.load(ordering: .acquiring) }

    /// Marks batch `number` (and so every batch before it) recorded.
    func mark(_ number: Int) { last.store(number, ordering: .releasing) }

    /// The number of the last batch recorded; 0 before the first.
    var lastRecorded: Int { last.load(ordering: .acquiring) }
}
