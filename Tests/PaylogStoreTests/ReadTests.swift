import TestSupport
import Foundation
import PaylogStore
import Testing

@Suite("Reading")
struct ReadTests {
    @Test("a stream reads forward and backward from any version, and never leaks into a stream whose id it prefixes")
    func streamReads() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        for index in 1...5 {
            _ = try await store.append([StoreFixtures.event("T", "p\(index)")], to: "pay")
            _ = try await store.append([StoreFixtures.event("T", "q\(index)")], to: "pay-longer")
        }
        #expect(try store.readStream("pay").map(\.version) == [1, 2, 3, 4, 5])
        #expect(try store.readStream("pay").allSatisfy { $0.streamID == "pay" })
        #expect(try store.readStream("pay", from: 3).map(\.version) == [3, 4, 5])
        #expect(try store.readStream("pay", from: 2, limit: 2).map(\.version) == [2, 3])
        #expect(try store.readStream("pay", direction: .backward).map(\.version) == [5, 4, 3, 2, 1])
        #expect(try store.readStream("pay", from: 3, direction: .backward).map(\.version) == [3, 2, 1])
        #expect(try store.readStream("pay-longer", direction: .backward, limit: 1).map(\.payload) == [Data("q5".utf8)])
        #expect(try store.readStream("pa").isEmpty)
        #expect(try store.readStream("zzz", direction: .backward).isEmpty)
        store.close()
    }

    @Test("the whole log reads in pages from a global position without loading it all")
    func pagedLogRead() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        for batch in 0..<25 {
            _ = try await store.append((0..<10).map { StoreFixtures.event("T", "\(batch)-\($0)") }, to: "s\(batch % 3)")
        }
        #expect(try store.read(from: 241, limit: 100).map(\.position) == Array(241...250))
        var seen: [UInt64] = []
        try store.forEach(from: 7, pageSize: 16) { event in
            seen.append(event.position)
            return true
        }
        #expect(seen == Array(7...250))
        var stopped: [UInt64] = []
        try store.forEach(from: 1, pageSize: 16) { event in
            stopped.append(event.position)
            return event.position < 20
        }
        #expect(stopped == Array(1...20))
        store.close()
    }
}
