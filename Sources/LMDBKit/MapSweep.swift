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
    /// How many looks a ``floor`` holds before the budget alone decides again: at least a second of the governor's.
    static let floorLooks = 200

    /// Bytes of the map released at a time.
    let slice: Int
    /// The offset in the map the next slice starts at.
    private(set) var hand = 0
    /// The process's resident file-backed bytes just after a sweep that went round the whole used part of the map
    /// and left the process over its target: memory this map cannot give back (the program's code, other stores'
    /// maps). Nil while the target was reached last time, and once ``floorLooks`` looks have passed.
    private(set) var floor: Int?
    /// Looks left before ``floor`` is forgotten.
    private(set) var floorLooksLeft = 0

    /// A sweep releasing `slice` bytes at a time (at least one byte).
    init(slice: Int) {
        self.slice = max(1, slice)
    }

    /// The resident bytes above which a look sweeps, for an environment with `budget`: the budget, or while a
    /// ``floor`` is known, the floor plus a quarter of the budget when that is higher. Counts the look towards the
    /// floor's expiry.
    ///
    /// Why the floor: where the rest of the process alone holds more file-backed memory than three quarters of the
    /// budget (a large binary's code, or a few hundred stores open at once, as in the test suite), no release of this
    /// map reaches the target. Every look then swept the whole map again, every 5 ms, and every read faulted its
    /// page back. With the floor, the map is swept again once the process has grown a quarter of the budget past what
    /// it could not give back, or 200 looks (at least a second) later, when the floor is measured anew.
    mutating func trigger(budget: Int) -> Int {
        guard let floor else { return budget }
        floorLooksLeft -= 1
        if floorLooksLeft <= 0 { self.floor = nil }
        return max(budget, floor + budget / 4)
    }

    /// Releases slices from the hand on, wrapping at `usedBytes`, while `resident()` (asked before each slice) is
    /// over `target` and until the used part of the map was gone round once. Returns the number of slices released.
    /// A round that leaves the process over its target sets ``floor``; one that reaches it clears it. A nil from
    /// `resident` (the figure unreadable) ends the sweep.
    mutating func sweep(
        usedBytes: Int, target: Int, resident: () -> Int?, release: (_ offset: Int, _ length: Int) -> Void
    ) -> Int {
        guard usedBytes > 0 else { return 0 }
        var swept = 0
        var slices = 0
        var level = resident()
        while swept < usedBytes, let current = level, current > target {
            if hand >= usedBytes { hand = 0 }
            let length = min(slice, usedBytes - hand)
            release(hand, length)
            hand += length
            swept += length
            slices += 1
            level = resident()
        }
        if swept >= usedBytes, let level, level > target {
            floor = level
            floorLooksLeft = MapSweep.floorLooks
        } else if level != nil {
            floor = nil
        }
        return slices
    }
}
