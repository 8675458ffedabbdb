@testable import LMDBKit
import Testing

@Suite("The budget thread's sweep of the map, a slice at a time")
struct MapSweepTests {
    /// Runs one sweep of `sweep` over `used` bytes in which the process counts as over its target until
    /// `overFor` slices were released; returns the (offset, length) pairs released, in order.
    static func run(_ sweep: inout MapSweep, used: Int, overFor: Int) -> [[Int]] {
        var released: [[Int]] = []
        let count = sweep.sweep(usedBytes: used, isOverTarget: { released.count < overFor }) { offset, length in
            released.append([offset, length])
        }
        #expect(count == released.count)
        return released
    }

    @Test("a sweep stops as soon as the process is under its target, and the next one goes on from there")
    func resumesWhereItStopped() {
        var sweep = MapSweep(slice: 10)
        #expect(Self.run(&sweep, used: 100, overFor: 3) == [[0, 10], [10, 10], [20, 10]])
        #expect(sweep.hand == 30)
        #expect(Self.run(&sweep, used: 100, overFor: 2) == [[30, 10], [40, 10]])
    }

    @Test("the hand wraps at the end of the used part, whose last slice is cut short")
    func wraps() {
        var sweep = MapSweep(slice: 40)
        #expect(Self.run(&sweep, used: 100, overFor: 2) == [[0, 40], [40, 40]])
        #expect(Self.run(&sweep, used: 100, overFor: 2) == [[80, 20], [0, 40]])
    }

    @Test("a sweep goes round the used part once at most, however long the process stays over its target")
    func oneRoundAtMost() {
        var sweep = MapSweep(slice: 30)
        _ = Self.run(&sweep, used: 100, overFor: 1)
        let round = Self.run(&sweep, used: 100, overFor: .max)
        #expect(round == [[30, 30], [60, 30], [90, 10], [0, 30]])
        #expect(round.reduce(0) { $0 + $1[1] } == 100)
    }

    @Test("a map that shrank under the hand is swept from its start; nothing is released under the target")
    func shrankAndUnder() {
        var sweep = MapSweep(slice: 10)
        _ = Self.run(&sweep, used: 100, overFor: 8)
        #expect(Self.run(&sweep, used: 50, overFor: 1) == [[0, 10]])
        #expect(Self.run(&sweep, used: 50, overFor: 0).isEmpty)
        #expect(Self.run(&sweep, used: 0, overFor: .max).isEmpty)
    }
}
