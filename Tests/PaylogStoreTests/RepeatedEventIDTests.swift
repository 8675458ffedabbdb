import Foundation
@testable import PaylogStore
import TestSupport
import Testing

/// The duplicate-id check every multi-event append runs before it is queued.
@Suite("Repeated event ids in one append")
struct RepeatedEventIDTests {
    /// The first id an earlier event already has, the plain way.
    static func reference(_ events: [NewEvent]) -> UUID? {
        var seen = Set<UUID>()
        for event in events where !seen.insert(event.id).inserted { return event.id }
        return nil
    }

    @Test("400 random appends of 2 to 1,500 events, with and without repeats: the same answer as a set")
    func sameAsSet() {
        var generator = SeededGenerator(seed: 17)
        let pool = (0..<40).map { _ in UUID() }
        for _ in 0..<400 {
            let count = Bool.random(using: &generator) ? Int.random(in: 2...16, using: &generator) : Int.random(in: 17...1_500, using: &generator)
            let repeats = Int.random(in: 0...3, using: &generator)
            var ids = (0..<count).map { _ in UUID() }
            for _ in 0..<repeats {
                // Repeat a pool id at two random places, or an earlier id at a later place.
                let id = Bool.random(using: &generator) ? pool.randomElement(using: &generator)! : ids.randomElement(using: &generator)!
                ids[Int.random(in: 0..<count, using: &generator)] = id
                ids[Int.random(in: 0..<count, using: &generator)] = id
            }
            let events = ids.map { NewEvent(id: $0, type: "Tick", payload: Data()) }
            #expect(events.firstRepeatedID == Self.reference(events))
        }
    }

    @Test("ids equal in their first 8 bytes only are not repeats")
    func sharedHalf() {
        let first = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0, 0, 0, 1))
        let second = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0, 0, 0, 2))
        for count in [3, 40] {
            var events = (0..<count).map { _ in NewEvent(id: UUID(), type: "Tick", payload: Data()) }
            events[0].id = first
            events[count - 1].id = second
            #expect(events.firstRepeatedID == nil)
            events[count / 2].id = second
            #expect(events.firstRepeatedID == second)
        }
    }
}
