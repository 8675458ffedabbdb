/// What a write transaction observed that the environment must act on after the body returns,
/// even when the body caught the error itself.
final class TransactionState {
    /// Some operation inside the transaction (or a nested one) failed with `MDB_MAP_FULL`.
    var sawMapFull = false
}
