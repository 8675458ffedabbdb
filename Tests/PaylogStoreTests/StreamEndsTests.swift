import Foundation
@testable import PaylogStore
import TestSupport
import Testing

/// The table of stream ends the log-order fold reads instead of looking each new stream up on its own: wherever
/// it answers, it must answer what the stream's last `versions` entry says; where it cannot, it must say so.
@Suite("Stream ends read from versions")
struct StreamEndsTests {
    @Test(
        "every stream's answer is its last version, or past the snapshot when appended to after it, however the read is batched",
        arguments: [7, StreamEnds.defaultBatchSize])
    func sameAsLastVersions(batchSize: Int) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        defer { store.close() }
        var generator = SeededGenerator(seed: 11)
        var versions: [String: UInt64] = [:]
        for _ in 0..<1_500 {
            let stream = "pay-\(Int.random(in: 0..<400, using: &generator))"
            let size = Int.random(in: 1...3, using: &generator)
            _ = try await store.append((0..<size).map { _ in StoreFixtures.event("Tick", "x") }, to: stream)
            versions[stream, default: 0] += UInt64(size)
        }
        // Streams of several `versions` chunks, one ending exactly at a chunk's end: only the last chunk counts.
        for (stream, sizes) in [("long-64", [64]), ("long-130", [50, 50, 30]), ("long-65", [63, 2])] {
            for size in sizes {
                _ = try await store.append((0..<size).map { _ in StoreFixtures.event("Tick", "x") }, to: stream)
            }
            versions[stream] = UInt64(sizes.reduce(0, +))
        }
        let snapshot = try store.lastPosition()
        let later = ["pay-1", "pay-2", "pay-3"].filter { versions[$0] != nil }
        for stream in later { _ = try await store.append([StoreFixtures.event("Tick", "late")], to: stream) }
        _ = try await store.append([StoreFixtures.event("Tick", "new")], to: "pay-new")

        let ends = try #require(try StreamEnds.read(
            store.environment, store.databases, snapshot: snapshot, maximumBytes: 1 << 20, mappedBudget: 1,
            batchSize: batchSize))
        #expect(ends.count == versions.count + 1)
        for (stream, version) in versions {
            let expected: StreamEnds.Lookup = later.contains(stream) ? .pastSnapshot : .lastVersion(version)
            #expect(ends.lookup(stream) == expected, "\(stream)")
        }
        #expect(ends.lookup("pay-new") == .pastSnapshot)
        #expect(ends.lookup("never-written") == .askVersions)
    }

    @Test("a table over its memory limit is not built; the fold then looks streams up")
    func overLimit() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        defer { store.close() }
        for stream in 0..<100 { _ = try await store.append([StoreFixtures.event("Tick", "x")], to: "s\(stream)") }
        let slots = StreamEnds.slotCount(for: 100)
        let fits = try StreamEnds.read(
            store.environment, store.databases, snapshot: 100, maximumBytes: slots * 8, mappedBudget: nil)
        #expect(fits?.count == 100)
        let over = try StreamEnds.read(
            store.environment, store.databases, snapshot: 100, maximumBytes: slots * 8 - 1, mappedBudget: nil)
        #expect(over == nil)
    }

    @Test("ids sharing a fingerprint: one met on its probe path is looked up; one with its own earlier slot is not")
    func sharedFingerprint() {
        var slots = [UInt64](repeating: 0, count: 16)
        let first: UInt64 = 0xABCD_EF01_2345_6703  // home slot 3
        let neighbour = first ^ 0x1  // the same 40 high bits, home slot 2
        let sameHome = first ^ 0x100  // the same 40 high bits and home slot, another hash
        let other: UInt64 = 0x1111_2222_3333_4403  // home slot 3 too, another fingerprint
        #expect(StreamEnds.insert(hash: neighbour, value: 5, into: &slots))
        #expect(StreamEnds.insert(hash: first, value: 4, into: &slots))
        #expect(StreamEnds.insert(hash: other, value: 9, into: &slots))
        #expect(!StreamEnds.insert(hash: sameHome, value: 2, into: &slots), "it meets the first one's slot")
        let ends = StreamEnds(slots: slots, count: 3)
        #expect(ends.lookup(hash: first) == .askVersions)
        #expect(ends.lookup(hash: sameHome) == .askVersions)
        #expect(ends.lookup(hash: neighbour) == .lastVersion(5), "its own slot comes first on its path")
        #expect(ends.lookup(hash: other) == .lastVersion(9), "probed past the shared slot")
        #expect(ends.lookup(hash: 0x7777_0000_0000_0001) == .askVersions, "absent")
    }

    @Test("last entries become versions, past-the-snapshot marks, or lookups when over 24 bits or malformed")
    func values() {
        func value(chunk: UInt32, _ positions: [UInt64], bytes: Int? = nil) -> UInt64 {
            let encoded = positions.flatMap { StoreKeys.bigEndian($0) }
            return Array(encoded.prefix(bytes ?? encoded.count)).withUnsafeBytes {
                StreamEnds.value(ofChunk: chunk, positions: $0, snapshot: 1_000)
            }
        }
        #expect(value(chunk: 0, [3, 9, 1_000]) == 3)
        #expect(value(chunk: 2, [999, 1_000]) == 130)
        #expect(value(chunk: 0, [3, 1_001]) == StreamEnds.pastSnapshotValue)
        let top = UInt32(StreamEnds.largestVersion / 64)
        #expect(value(chunk: top, [5]) == UInt64(top) * 64 + 1)
        #expect(UInt64(top) * 64 + 1 <= StreamEnds.largestVersion)
        #expect(value(chunk: top + 1, [5]) == StreamEnds.askVersionsValue)
        #expect(value(chunk: 0, [7, 5], bytes: 15) == StreamEnds.askVersionsValue)
        #expect(value(chunk: 0, []) == StreamEnds.askVersionsValue)
        #expect(value(chunk: 0, Array(repeating: 5, count: 65)) == StreamEnds.askVersionsValue)
    }

    @Test("tables stay at most 0.7 full, in powers of two")
    func slotCounts() {
        for streams in [0, 1, 11, 12, 1_000, 2_482_646] {
            let slots = StreamEnds.slotCount(for: streams)
            #expect(slots.nonzeroBitCount == 1)
            #expect(Double(streams) <= 0.7 * Double(slots))
            #expect(slots == 16 || Double(streams) > 0.35 * Double(slots))
        }
    }
}
