import Foundation
import LMDBKit
@testable import PaylogBench
import PaylogStore
import TestSupport
import Testing

/// The layout floor reported beside `append-concurrent` must do the LMDB work paylog's appends do, or its figure
/// would not be the scenario's ceiling.
@Suite("the append-concurrent layout floor")
struct LayoutFloorBaselineTests {
    /// The entries of database `name` in the environment at `path`.
    private static func entries(_ name: String, at path: String) throws -> [(key: [UInt8], value: [UInt8])] {
        let environment = try Environment(path: path)
        defer { environment.close() }
        return try environment.write { txn in
            let database = try #require(try txn.openDatabase(name, create: false), "no database \(name)")
            return try txn.entries(of: database)
        }
    }

    private static func bigEndian(_ bytes: some Collection<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    @Test("its records are the size paylog stores a bench event in")
    func recordSizeMatchesTheStore() async throws {
        let directory = TemporaryDirectory("paylog-floor-store")
        defer { directory.remove() }
        let store = try EventStore(path: directory.path)
        // Positions from 16,384 on take three bytes, as in the scenario's default run of 50,000 events.
        let fillers = (0..<16_384).map {
            NewEvent(id: BenchEventID.make(2, UInt64($0)), type: "BenchEvent", payload: BenchRunner.syntheticPayload)
        }
        _ = try await store.append(fillers, to: BenchRunner.paymentStreamID(0))
        let event = NewEvent(id: BenchEventID.make(1, 49_999), type: "BenchEvent", payload: BenchRunner.syntheticPayload)
        let result = try await store.append([event], to: BenchRunner.paymentStreamID(8_000))
        store.close()
        #expect(result.positions == 16_385...16_385)

        let events = try Self.entries("events", at: directory.path)
        let last = try #require(events.last)
        #expect(last.value.count == LayoutFloorBaseline.recordBytes)
    }

    @Test("it writes each event's record, id and version, and the head, as an append would")
    func writesTheLayout() throws {
        let directory = TemporaryDirectory("paylog-floor")
        defer { directory.remove() }
        let (commits, group) = (9, 4)
        let rate = try LayoutFloorBaseline.run(directory: directory.path, commits: commits, group: group)
        #expect(rate > 0)

        let total = commits * group
        let events = try Self.entries("events", at: directory.path)
        #expect(events.map { Self.bigEndian($0.key) } == (1...UInt64(total)).map { $0 })
        #expect(events.allSatisfy { $0.value.count == LayoutFloorBaseline.recordBytes })

        // Every id once, pointing at its event's position (callers take turns within each commit).
        let ids = try Self.entries("ids", at: directory.path)
        #expect(ids.count == total)
        #expect(ids.allSatisfy { Self.bigEndian($0.key.prefix(8)) == 1 && Self.bigEndian($0.key.suffix(8)) + 1 == Self.bigEndian($0.value) })

        // Each caller owns its streams, six events each: callers × ceil(commits / 6) streams, each one chunk
        // holding its events' positions in order.
        let versions = try Self.entries("versions", at: directory.path)
        #expect(versions.count == group * ((commits + 5) / 6))
        var positions: [String: [UInt64]] = [:]
        for position in 1...total {
            let (commit, caller) = ((position - 1) / group, (position - 1) % group)
            positions[BenchRunner.paymentStreamID((commit / 6) * group + caller), default: []].append(UInt64(position))
        }
        for entry in versions {
            let stream = String(decoding: entry.key.prefix(18), as: UTF8.self)
            #expect(entry.key.count == 23 && entry.key[18] == 0 && Self.bigEndian(entry.key.suffix(4)) == 0)
            let stored = stride(from: 0, to: entry.value.count, by: 8).map { Self.bigEndian(entry.value[$0..<($0 + 8)]) }
            #expect(stored == positions[stream], "\(stream)")
        }

        let meta = try Self.entries("meta", at: directory.path)
        #expect(meta.count == 1)
        #expect(Self.bigEndian(try #require(meta.first).value.prefix(8)) == UInt64(total))
    }
}
