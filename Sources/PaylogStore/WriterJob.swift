import LMDBKit

/// Work queued for the writer thread: an append (grouped with others into one commit) or an exclusive job
/// that runs alone in its own write transaction (imports, view swaps).
enum WriterJob: Sendable {
    /// An append, grouped with neighbours.
    case append(AppendRequest)
    /// A job that runs alone; `run` must derive everything from the transaction (it may run again after a
    /// map growth) and report its own outcome through `completion`.
    /// Work on the writer thread that opens its own transactions (view rebuild steps).
    case task(@Sendable () -> Void)
    /// A job that runs alone in its own write transaction.
    case exclusive(run: @Sendable (borrowing Transaction, StoreDatabases) throws -> Void, completion: @Sendable ((any Error)?) -> Void)
}
