/// The folder any ``StreamFoldingProjection`` gets by default: its ``StreamFoldingProjection/fold(_:into:rows:)-(FoldEvent,_,_)``
/// and ``StreamFoldingProjection/finish(_:stream:rows:)`` over states kept by slot. Generic, so it runs
/// unspecialised for a projection of another module; see ``StreamFolder`` for when to write one's own.
final class GenericStreamFolder<Projection: StreamFoldingProjection>: StreamFolder {
    private let projection: Projection
    private var states = SlotStates<Projection.StreamState>()

    init(_ projection: Projection) {
        self.projection = projection
    }

    func fold(_ event: FoldEvent, slot: Int, rows: inout ViewRows) throws {
        try projection.fold(event, into: &states[slot], rows: &rows)
    }

    func finish(slot: Int, stream streamID: String, rows: inout ViewRows) throws {
        if let state = states.take(slot) { try projection.finish(state, stream: streamID, rows: &rows) }
    }

    func discard(slot: Int) {
        _ = states.take(slot)
    }
}
