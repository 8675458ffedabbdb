import Foundation
import TestSupport
import Testing

@testable import PaylogStore

/// The table a fold finds its open streams in by the id's bytes, held to a dictionary through random opens and
/// closes, growth and long probe runs.
@Suite("Stream slot table")
struct StreamSlotTableTests {
    /// Ids shaped like the bench's and the demo's, with shared prefixes, and a few that are not ASCII.
    private static func id(_ number: Int) -> String {
        switch number % 4 {
        case 0: return "paa-0001-\(number)"
        case 1: return "pay-\(number)-é"
        case 2: return "p\(number)"
        default: return "payment-\(String(repeating: "0", count: 10 - String(number).count))\(number)"
        }
    }

    private static func slot(_ table: StreamSlotTable, bytesOf id: String) -> Int? {
        Array(id.utf8).withUnsafeBytes { table.slot(of: $0) }
    }

    @Test("random opens and closes find exactly what a dictionary holds, by id and by bytes", arguments: [1, 2, 3])
    func againstADictionary(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let table = StreamSlotTable(capacity: 4)
        var model: [String: Int] = [:]
        var freeSlots: [Int] = []
        var nextSlot = 0
        for step in 0..<20_000 {
            let number = Int.random(in: 0..<3_000, using: &generator)
            let id = Self.id(number)
            if let slot = model[id] {
                #expect(table.slot(of: id) == slot && Self.slot(table, bytesOf: id) == slot && table.id(of: slot) == id)
                if Bool.random(using: &generator) {
                    table.remove(slot: slot)
                    model[id] = nil
                    freeSlots.append(slot)
                }
            } else {
                #expect(table.slot(of: id) == nil && Self.slot(table, bytesOf: id) == nil, "step \(step): \(id) is not open")
                let slot = freeSlots.popLast() ?? { defer { nextSlot += 1 }; return nextSlot }()
                table.insert(id, slot: slot)
                model[id] = slot
            }
            #expect(table.count == model.count)
        }
        for (id, slot) in model { #expect(table.slot(of: id) == slot) }
        // Ids one byte longer or shorter than those held are found only when held themselves.
        for id in model.keys.prefix(200) {
            for near in [id + "x", String(id.dropLast())] { #expect(table.slot(of: near) == model[near]) }
        }
    }

    @Test("entries whose home buckets coincide stay reachable when any of them is removed")
    func collidingRuns() {
        // Find ids whose hashes share their low bits (the same home bucket in a small table).
        let mask: UInt64 = 63
        var byHome: [UInt64: [String]] = [:]
        for number in 0..<5_000 {
            let id = Self.id(number)
            let hash = Array(id.utf8).withUnsafeBytes { StreamSlotTable.hash($0) }
            byHome[hash & mask, default: []].append(id)
        }
        let (_, crowd) = byHome.max { $0.value.count < $1.value.count }!
        let ids = Array(crowd.prefix(12))
        #expect(ids.count == 12)
        for removed in ids.indices {
            let table = StreamSlotTable(capacity: 16)
            for (slot, id) in ids.enumerated() { table.insert(id, slot: slot) }
            table.remove(slot: removed)
            for (slot, id) in ids.enumerated() {
                #expect(table.slot(of: id) == (slot == removed ? nil : slot), "\(id) after removing \(ids[removed])")
            }
        }
    }
}
