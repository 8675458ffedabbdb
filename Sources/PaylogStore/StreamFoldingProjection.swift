import LMDBKit

/// An inline projection whose view follows from each stream on its own, so a rebuild may read the log stream by
/// stream instead of event by event.
///
/// A rebuild of such a projection walks the `streams` index in stream-id order, hands each whole stream to
/// ``fold(stream:into:)``, appends the rows keyed by stream id in key order (`MDB_APPEND`: no random B-tree
/// updates, each page written once) and sorts the other rows (``ViewRows/index(_:for:in:position:)``) in
/// bounded memory before appending them too. Events appended while it runs are applied afterwards in log order
/// with ``InlineProjection/apply(_:in:databases:)-(RecordedEvent,_,_)``.
///
/// The contract: folding every stream must leave exactly the view that applying the same events one by one in
/// log order leaves. `paylog replay` checks it on every run, since it rebuilds in log order and compares with
/// the live view.
public protocol StreamFoldingProjection: InlineProjection {
    /// Folds one whole stream — its events up to the rebuild's snapshot, in version order, never empty — into
    /// `rows`.
    func fold(stream events: [RecordedEvent], into rows: inout ViewRows) throws
}
