@testable import LMDBKit
import Testing

@Suite("The budget thread's sweep of the map, a slice at a time")
struct MapSweepTests {
    /// The target the helpers sweep towards.
    static let target = 750

    /// Runs one sweep of `sweep` over `used` bytes in which the process counts as over its target until
    /// `overFor` slices were released; returns the (offset, length) pairs released, in order.
    static func run(_ sweep: inout MapSweep, used: Int, overFor: Int) -> [[Int]] {
        var released: [[Int]] = []
        let count = sweep.sweep(
            usedBytes: used, target: target, resident: { released.count < overFor ? target + 1 : target }
        ) { offset, length in
            released.append([offset, length])
        }
        #expect(count == released.count)
        return released
    }

    /// Runs one sweep of `sweep` over `used` bytes in which the process holds `resident` bytes whatever is released.
    static func runStuck(_ sweep: inout MapSweep, used: Int, resident: Int) -> Int {
        sweep.sweep(usedBytes: used, target: target, resident: { resident }) { _, _ in }
    }

    /// A sweep of 10-byte slices whose round over 30 bytes left the process at 2,000 bytes: its floor.
    static func sweepWithFloor() -> MapSweep {
        var sweep = MapSweep(slice: 10)
        _ = runStuck(&sweep, used: 30, resident: 2_000)
        return sweep
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

    @Test("a round that leaves the process over its target raises the next looks' trigger to its floor plus a quarter of the budget")
    func floorAfterAFruitlessRound() {
        var sweep = MapSweep(slice: 10)
        #expect(sweep.trigger(budget: 1_000) == 1_000)
        #expect(Self.runStuck(&sweep, used: 30, resident: 2_000) == 3, "the whole used part is released once")
        #expect(sweep.floor == 2_000)
        #expect(sweep.trigger(budget: 1_000) == 2_250)
        // The next fruitless round measures the floor anew.
        #expect(Self.runStuck(&sweep, used: 30, resident: 800) == 3)
        #expect(sweep.floor == 800)
        #expect(sweep.trigger(budget: 1_000) == 1_050)
    }

    @Test("a sweep that reaches its target forgets the floor")
    func targetReachedClearsFloor() {
        var sweep = Self.sweepWithFloor()
        #expect(sweep.floor != nil)
        #expect(Self.run(&sweep, used: 30, overFor: 1).count == 1)
        #expect(sweep.floor == nil)
        #expect(sweep.trigger(budget: 1_000) == 1_000)
    }

    @Test("a sweep that finds the process under its target forgets the floor too")
    func underTargetClearsFloor() {
        var sweep = Self.sweepWithFloor()
        #expect(Self.run(&sweep, used: 30, overFor: 0).isEmpty)
        #expect(sweep.floor == nil)
    }

    @Test("a floor holds for floorLooks looks, then the budget alone decides again")
    func floorExpires() {
        var sweep = Self.sweepWithFloor()
        for look in 1...MapSweep.floorLooks {
            #expect(sweep.trigger(budget: 1_000) == 2_250, "look \(look)")
        }
        #expect(sweep.floor == nil)
        #expect(sweep.trigger(budget: 1_000) == 1_000)
    }

    @Test("an unreadable figure ends the sweep and leaves the floor as it was")
    func unreadableFigure() {
        var sweep = Self.sweepWithFloor()
        var released = 0
        #expect(sweep.sweep(usedBytes: 30, target: Self.target, resident: { nil }) { _, _ in released += 1 } == 0)
        #expect(released == 0)
        #expect(sweep.floor == 2_000)
    }

    @Test("a round cut short by the target does not set a floor, though the process was over it when the round began")
    func partialRoundSetsNoFloor() {
        var sweep = MapSweep(slice: 10)
        #expect(Self.run(&sweep, used: 100, overFor: 5).count == 5)
        #expect(sweep.floor == nil)
    }
}
