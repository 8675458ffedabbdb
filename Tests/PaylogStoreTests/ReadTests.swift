import TestSupport
import Foundation
import LMDBKit
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
        #expect(try store.readStream("pay-longer", direction: .backward, limit: 1).map { try $0.payload } == [Data("q5".utf8)])
        #expect(try store.readStream("pa").isEmpty)
        #expect(try store.readStream("zzz", direction: .backward).isEmpty)
        store.close()
    }

    @Test("a stream longer than one page of its index reads from every version in both directions, also past its end")
    func longStreamReads() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        // 700 entries of 16 bytes outgrow a 4 KiB page: LMDB moves the stream's versions into a tree of their own.
        for batch in 0..<7 {
            _ = try await store.append((1...100).map { StoreFixtures.event("T", "long \(batch * 100 + $0)") }, to: "long")
            _ = try await store.append([StoreFixtures.event("T", "other \(batch)")], to: "long-other")
        }
        let all = try store.readStream("long")
        #expect(all.map(\.version) == Array(1...700))
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.position < $1.position })
        for from: UInt64 in [1, 2, 99, 100, 101, 257, 512, 699, 700] {
            #expect(try store.readStream("long", from: from, limit: 3).map(\.version) == Array(from...min(from + 2, 700)))
            #expect(
                try store.readStream("long", from: from, direction: .backward, limit: 3).map(\.version)
                    == Array((max(from, 3) - 2...from).reversed()))
        }
        #expect(try store.readStream("long", from: 701).isEmpty)
        #expect(try store.readStream("long", from: 10_000, direction: .backward, limit: 2).map(\.version) == [700, 699])
        #expect(try store.readStream("long-other", from: 0).map(\.version) == Array(1...7))
        store.close()
    }

    @Test("a stream whose versions index lost a chunk fails its read with the reason, instead of answering short")
    func damagedVersionsIndex() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var store = try EventStore(path: dir.path)
        _ = try await store.append((1...140).map { StoreFixtures.event("T", "e\($0)") }, to: "pay")
        store.close()
        let environment = try Environment(path: dir.path)
        try environment.write { txn in
            let versions = try #require(try txn.openDatabase("versions", create: false))
            // Chunk 1 (versions 65–128) of three: stream id, NUL, chunk number u32 big-endian. (Chunk 2 still says
            // where the stream ends; a lost last chunk would shorten the stream, as a lost `heads` entry did.)
            #expect(try txn.delete(Array("pay".utf8) + [0, 0, 0, 0, 1], in: versions))
        }
        environment.close()

        store = try EventStore(path: dir.path)
        #expect(try store.readStream("pay", limit: 64).count == 64)
        #expect {
            _ = try store.readStream("pay")
        } throws: { error in
            guard case .corruptRecord(let position, let reason) = error as? EventStoreError else { return false }
            return position == 140 && reason.contains("reaches version 140 but its versions index stops before 65")
        }
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

    /// A store of 250 events (positions 1…250) appended ten at a time.
    private static func populated(_ path: String) async throws -> EventStore {
        let store = try EventStore(path: path)
        for batch in 0..<25 {
            _ = try await store.append((0..<10).map { StoreFixtures.event("T", "\(batch)-\($0)") }, to: "s\(batch % 3)")
        }
        return store
    }

    @Test("events appended while a paged read runs are delivered in order, once each")
    func appendsDuringReadAhead() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try await Self.populated(dir.path)
        var seen: [UInt64] = []
        var appended = false
        try store.forEach(from: 1, pageSize: 16) { event in
            seen.append(event.position)
            if event.position == 100 && !appended {
                appended = true
                for index in 0..<30 {
                    _ = try store.appendBlocking([StoreFixtures.event("Late", "late \(index)")], to: "late")
                }
            }
            return true
        }
        #expect(seen == Array(1...280))
        store.close()
    }

    @Test(
        "a record that does not decode ends the read at its position, after every event before it",
        arguments: [5, 20, 40, 250])
    func corruptRecordInAPage(position: UInt64) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await Self.populated(dir.path).close()
        let env = try Environment(path: dir.path)
        let events = try env.openDatabase("events", create: false)
        try env.write { txn in
            // The format byte and a hash, then a protobuf tag with no field number: not an envelope.
            let key = withUnsafeBytes(of: position.bigEndian) { Array($0) }
            try txn.put([1] + [UInt8](repeating: 0, count: 32) + [0x00, 0x01], for: key, in: events)
        }
        env.close()
        let store = try EventStore(path: dir.path)
        var seen: [UInt64] = []
        do {
            try store.forEach(pageSize: 16) { event in
                seen.append(event.position)
                return true
            }
            Issue.record("the read went past the damaged record at \(position)")
        } catch {
            guard let failure = error as? EventStoreError, case .corruptRecord(let at, _) = failure else {
                Issue.record("expected corruptRecord, got \(error)")
                return
            }
            #expect(at == position)
        }
        #expect(seen == Array(1..<position).map { UInt64($0) })
        store.close()
    }

    @Test("stopping inside any page ends the read at that event; the store closes right after")
    func stopInsideAPage() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try await Self.populated(dir.path)
        for stop in [UInt64(20), 33, 200] {
            var last: UInt64 = 0
            try store.forEach(pageSize: 16) { event in
                last = event.position
                return event.position < stop
            }
            #expect(last == stop)
        }
        store.close()
    }
}
