/// A write session queued for the writer thread (``EventStore/withWriteSession(_:)``).
///
/// The writer runs the sessions queued together one after the other in one write transaction, each in a
/// ``WriteSession`` of its own (its own checks, its own outcome), and commits them with one fsync: group commit for
/// sessions, as for appends. Only then is each caller answered.
struct SessionJob: Sendable {
    /// Runs the session's body once in `session`, and returns how to answer its caller once the transaction has
    /// committed; throws what the body threw. May run more than once (see ``EventStore/withWriteSession(_:)``).
    let run: @Sendable (WriteSession) throws -> @Sendable () -> Void
    /// Answers the caller with `error`: nothing of its session is kept.
    let fail: @Sendable (EventStoreError) -> Void
}
