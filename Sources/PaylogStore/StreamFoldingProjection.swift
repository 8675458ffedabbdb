import LMDBKit

/// An inline projection whose view follows from each stream on its own, so a rebuild may fold each stream in
/// memory and write its rows once, instead of updating the view event by event.
///
/// A rebuild of such a projection reads the log once, in log order (sequential reads), split over the cores by
/// stream: each event is folded with ``fold(_:into:rows:)`` into its stream's state, and when the stream's last
/// event up to the rebuild's snapshot is folded, ``finish(_:stream:rows:)`` turns the state into the stream's
/// own rows. Every row is sorted in bounded memory and appended in key order (`MDB_APPEND`: each page written
/// once). Events appended while it runs are applied afterwards in log order with
/// ``InlineProjection/apply(_:in:databases:)-(RecordedEvent,_,_)``.
///
/// The contract: folding every stream must leave exactly the view that applying the same events one by one in
/// log order leaves. `paylog replay` checks it on every run, since it rebuilds in log order and compares with
/// the live view.
public protocol StreamFoldingProjection: InlineProjection {
    /// What the fold keeps of one stream between its events.
    associatedtype StreamState

    /// Folds the next event of a stream (in version order) into its state, nil before the stream's first event.
    /// Rows that other streams may also write (a secondary index) go to `rows` with
    /// ``ViewRows/index(_:for:in:position:)``.
    func fold(_ event: RecordedEvent, into state: inout StreamState?, rows: inout ViewRows) throws

    /// The same fold, given the event as the rebuild reads it from the mapped log: the envelope in place and
    /// the payload decompressed only when asked for. A rebuild calls this one; the default decodes the whole
    /// event (``FoldEvent/recorded()``) and calls ``fold(_:into:rows:)-(RecordedEvent,_,_)``. Implement it when
    /// a projection can fold from fewer fields: it must leave exactly what the other leaves.
    func fold(_ event: FoldEvent, into state: inout StreamState?, rows: inout ViewRows) throws

    /// Adds the rows of a stream whose events up to the snapshot are all folded: typically its state, keyed by
    /// stream id, with ``ViewRows/append(_:for:in:)``.
    func finish(_ state: StreamState, stream streamID: String, rows: inout ViewRows) throws

    /// A new folder of this projection's stream states for one range of a rebuild (see ``StreamFolder``). The
    /// default is generic: it calls ``fold(_:into:rows:)-(FoldEvent,_,_)`` and ``finish(_:stream:rows:)``
    /// unspecialised. A projection whose rebuild speed matters returns its own, written with its concrete types.
    func makeFolder() -> any StreamFolder
}

extension StreamFoldingProjection {
    /// Decodes the whole event and folds it with ``fold(_:into:rows:)-(RecordedEvent,_,_)``.
    public func fold(_ event: FoldEvent, into state: inout StreamState?, rows: inout ViewRows) throws {
        try fold(event.recorded(), into: &state, rows: &rows)
    }

    /// A ``StreamFolder`` calling this projection's fold and finish generically.
    public func makeFolder() -> any StreamFolder {
        GenericStreamFolder(self)
    }
}
