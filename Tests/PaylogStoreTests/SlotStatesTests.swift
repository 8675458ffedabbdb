import Synchronization
import Testing

@testable import PaylogStore

/// ``SlotStates``, the buffer a rebuild's folders keep their open streams' states in.
@Suite("Slot states")
struct SlotStatesTests {
    /// A state that counts how many of its kind are alive, so that a test sees every state released exactly once.
    final class Counted {
        static let alive = Atomic<Int>(0)
        var value: Int
        init(_ value: Int) {
            self.value = value
            Self.alive.add(1, ordering: .relaxed)
        }
        deinit { Self.alive.subtract(1, ordering: .relaxed) }
    }

    @Test("states fold in place at any slot, growing past the first buffer; take empties a slot; all are released")
    func foldTakeAndRelease() {
        do {
            var states = SlotStates<[Int]>()
            #expect(states[0] == nil && states[1_000] == nil)
            for slot in [0, 15, 16, 100, 3, 1_000] {
                if states[slot] == nil { states[slot] = [] }
                states[slot]!.append(slot)
                states[slot]!.append(slot + 1)
            }
            for slot in [0, 15, 16, 100, 3, 1_000] { #expect(states[slot] == [slot, slot + 1]) }
            #expect(states[4] == nil && states[999] == nil && states[5_000] == nil)
            #expect(states.take(100) == [100, 101])
            #expect(states[100] == nil && states.take(100) == nil && states.take(50_000) == nil)
            states[100] = [7]
            #expect(states[100] == [7])
        }
        let before = Counted.alive.load(ordering: .relaxed)
        do {
            var states = SlotStates<Counted>()
            for slot in 0..<40 { states[slot * 3] = Counted(slot) }  // grows twice, moving the states
            for slot in 0..<40 { states[slot * 3]!.value += 1 }
            #expect((0..<40).allSatisfy { states[$0 * 3]?.value == $0 + 1 })
            let taken = states.take(9)
            #expect(taken?.value == 4)
            states[9] = nil  // releases nothing more: taken still holds it
            #expect(Counted.alive.load(ordering: .relaxed) == before + 40)
        }
        #expect(Counted.alive.load(ordering: .relaxed) == before)
    }
}
