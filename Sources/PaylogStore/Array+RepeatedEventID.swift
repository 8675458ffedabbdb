import Foundation

extension Array where Element == NewEvent {
    /// The id of the first event (in order) whose id an earlier event of the array already has, or nil.
    ///
    /// Every append of more than one event asks this before it is queued, on the caller's side of the hand-off to
    /// the writer, so it is on the path of each batch: a `Set<UUID>` (SipHash and a table insert per event) took
    /// about 3 % of an `append-batched` run. Small arrays are compared pairwise; larger ones sorted by their id
    /// bytes, ties kept in array order.
    var firstRepeatedID: UUID? {
        if count <= 16 {
            for later in indices.dropFirst() {
                let id = self[later].id
                if self[..<later].contains(where: { $0.id == id }) { return id }
            }
            return nil
        }
        var keys = enumerated().map { index, event in
            Swift.withUnsafeBytes(of: event.id.uuid) { raw in
                (high: UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)),
                 low: UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)), index: index)
            }
        }
        keys.sort { ($0.high, $0.low, $0.index) < ($1.high, $1.low, $1.index) }
        // In each run of equal ids, the second element is that id's first repetition; the earliest of those wins.
        var first: Int?
        for position in keys.indices.dropFirst() {
            let (previous, current) = (keys[position - 1], keys[position])
            guard current.high == previous.high, current.low == previous.low else { continue }
            if position >= 2, keys[position - 2].high == current.high, keys[position - 2].low == current.low { continue }
            first = Swift.min(first ?? current.index, current.index)
        }
        return first.map { self[$0].id }
    }
}
