import Foundation
@testable import PaylogStore
import TestSupport
import Testing

/// Where a stream ends, read from its last `versions` entry (log format 4 keeps no `heads`): it must agree with
/// what was appended for every stream, whatever ids sort around it, and say "no events" for every other id.
@Suite("Stream tails read from versions")
struct StreamTailTests {
    @Test("every stream's tail is its last version and position, for ids that prefix one another and long streams")
    func tailsMatchAppends() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        defer { store.close() }
        // Ids that are prefixes of one another, one with a byte just above NUL, and streams of several chunks.
        let appends: [(String, Int)] = [
            ("pay-1", 2), ("pay-10", 64), ("pay-1\u{01}", 1), ("pay-100", 50), ("pay-1", 1), ("pay-100", 80),
            ("pay-10", 1), ("a", 3), ("zz", 129),
        ]
        var expected: [String: StreamTail] = [:]
        for (stream, size) in appends {
            let result = try await store.append((0..<size).map { _ in StoreFixtures.event() }, to: stream)
            expected[stream] = StreamTail(version: result.versions.upperBound, position: result.positions.upperBound)
        }
        #expect(expected["pay-100"] == StreamTail(version: 130, position: expected["pay-100"]!.position))
        // Before the first key, between keys, a prefix of a stored id, after the last key.
        let absent = ["0", "pay-", "pay-2", "pay-1000", "pay-1\u{02}", "zzz", "\u{10FFFF}"]
        let read = try store.environment.read { txn in
            try (Array(expected.keys) + absent).map { ($0, try StreamTail.read($0, in: txn, databases: store.databases)) }
        }
        #expect(read.count == expected.count + absent.count)
        for (stream, tail) in read {
            #expect(tail == expected[stream] ?? .empty, "\(stream)")
        }
        for (stream, tail) in expected {
            #expect(try store.version(of: stream) == tail.version)
            #expect(try store.readStream(stream).map(\.version) == Array(1...tail.version))
            #expect(try store.readStream(stream, direction: .backward, limit: 1).map(\.position) == [tail.position])
        }
        #expect(try store.version(of: "pay-2") == 0)
    }

    @Test("only a key of the stream itself names a chunk, and only a whole list of 1–64 positions is a tail")
    func keysAndValues() {
        func chunk(_ key: [UInt8], of id: String) -> UInt32? {
            key.withUnsafeBytes { key in Array(id.utf8).withUnsafeBytes { StreamTail.chunk(ofKey: key, id: $0) } }
        }
        let key = StoreKeys.versionsKey("pay-1", chunk: 0x0102_0304)
        #expect(chunk(key, of: "pay-1") == 0x0102_0304)
        #expect(chunk(key, of: "pay-") == nil)
        #expect(chunk(key, of: "pay-2") == nil)
        #expect(chunk(StoreKeys.versionsKey("pay-10", chunk: 1), of: "pay-1") == nil)
        #expect(chunk(Array(key.dropLast()), of: "pay-1") == nil)

        func tail(_ chunk: UInt32, _ positions: [UInt64], bytes: Int? = nil) -> StreamTail? {
            let encoded = positions.flatMap { StoreKeys.bigEndian($0) }
            return Array(encoded.prefix(bytes ?? encoded.count)).withUnsafeBytes { StreamTail.tail(chunk: chunk, positions: $0) }
        }
        #expect(tail(0, [4, 9]) == StreamTail(version: 2, position: 9))
        #expect(tail(3, [70]) == StreamTail(version: 193, position: 70))
        #expect(tail(0, Array(1...64)) == StreamTail(version: 64, position: 64))
        #expect(tail(0, []) == nil)
        #expect(tail(0, [4, 9], bytes: 12) == nil)
        #expect(tail(0, Array(1...65)) == nil)
    }
}
