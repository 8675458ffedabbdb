/// The states of the streams one fold of a rebuild holds open, each in a numbered slot, and the projection's
/// fold of them: what a ``FoldPartition`` calls per event.
///
/// The partition keeps which stream is in which slot; the folder keeps the states. A folder is made per range of
/// the log (``StreamFoldingProjection/makeFolder()``) and used by one thread at a time.
///
/// Why a protocol of its own: the partition is code of `PaylogStore`, the projection's types are another
/// module's, so a partition generic over the projection ran unspecialised — generic metadata looked up and
/// states copied through value witnesses on every event, about a tenth of a fold thread (`perf`,
/// Docs/performance.md). A projection's own folder is compiled with its concrete types; the partition makes one
/// dynamic call per event into it. The default (``StreamFoldingProjection/makeFolder()``) is generic and works for
/// any projection; a projection on a hot path implements its own.
public protocol StreamFolder: AnyObject {
    /// Folds the next event of the stream in `slot` (in version order) into its state; the first event of a
    /// stream finds the slot empty. See ``StreamFoldingProjection/fold(_:into:rows:)-(FoldEvent,_,_)``.
    func fold(_ event: FoldEvent, slot: Int, rows: inout ViewRows) throws

    /// Adds the rows of the stream `streamID` in `slot`, whose events up to the snapshot are all folded (see
    /// ``StreamFoldingProjection/finish(_:stream:rows:)``), and empties the slot. Nothing is added for a slot
    /// that holds no state.
    func finish(slot: Int, stream streamID: String, rows: inout ViewRows) throws

    /// Empties `slot` without adding rows (its stream is folded again later, on its own).
    func discard(slot: Int)
}
