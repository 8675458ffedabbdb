/// Why a write transaction running several sessions (``SessionJob``) was aborted because of one of them: the writer
/// runs the transaction again, the session at `index` without the append that failed (`late`) or left out
/// altogether (`body`).
enum SessionFailure: Error {
    /// The session's append at the ordinal in the ``LateAppendFailure`` failed after it began writing.
    case late(index: Int, LateAppendFailure)
    /// The session's body threw `error` (its writes are in the transaction: they must not commit).
    case body(index: Int, any Error)
}
