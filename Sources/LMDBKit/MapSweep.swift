/// Where the budget thread (``MappedMemoryGovernor``) releases an environment's map next: one slice at a time,
/// going round the used part of the map like a clock hand, and stopping as soon as the process is back under its
/// target.
///
/// Why not the whole map at once: a store serving random reads (a payment's state at a position, an HTTP lookup)
/// over a log larger than the budget goes over it every few milliseconds, and a whole-map release sends every
/// page back through a fault — the B-tree's branch pages, read by every lookup, included. With 96 MiB over the
/// 414 MB bench log that halved the `load-stream` scenario's rate (Docs/performance.md, *Mapped memory*). A slice
/// released at a time leaves the pages elsewhere in the map where they are, so a hot page faults back once per
/// round of the hand, not once per release.
struct MapSweep: Sendable {
    /// Bytes of the map released at a time.
    let slice: Int
    /// The offset in the map the next slice starts at.
    private(set) var hand = 0

    /// A sweep releasing `slice` bytes at a time (at least one byte).
    init(slice: Int) {
        self.slice = max(1, slice)
    }

    /// Releases slices from the hand on, wrapping at `usedBytes`, while `isOverTarget()` holds — asked before each
    /// slice — and until the used part of the map was gone round once. Returns the number of slices released.
    mutating func sweep(
        usedBytes: Int, isOverTarget: () -> Bool, release: (_ offset: Int, _ length: Int) -> Void
    ) -> Int {
        guard usedBytes > 0 else { return 0 }
        var swept = 0
        var slices = 0
        while swept < usedBytes, isOverTarget() {
            if hand >= usedBytes { hand = 0 }
            let length = min(slice, usedBytes - hand)
            release(hand, length)
            hand += length
            swept += length
            slices += 1
        }
        return slices
    }
}
