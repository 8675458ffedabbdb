/// Work queued for the writer thread: an append (grouped with others into one commit), a write session (grouped
/// with the sessions queued beside it into one commit), or a task that runs alone between groups and opens its own
/// write transactions (imports, view rebuild steps).
enum WriterJob: Sendable {
    /// An append, grouped with neighbours.
    case append(AppendRequest)
    /// Work on the writer thread that opens its own transactions. When the writer has stopped it runs on the
    /// caller's thread, where its transactions fail with `closed`.
    case task(@Sendable () -> Void)
    /// A write session, grouped with the sessions queued right behind it.
    case session(SessionJob)
}
