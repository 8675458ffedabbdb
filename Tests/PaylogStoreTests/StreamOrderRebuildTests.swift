import Foundation
import PaylogStore
import Synchronization
import TestSupport
import Testing

@Suite("Stream-order rebuilds")
struct StreamOrderRebuildTests {
    /// Appends `count` events over `streams` streams in random order; payloads are one of 25 tags, so the
    /// `tags` index has keys written by many streams.
    static func fill(_ store: EventStore, count: Int, streams: Int, seed: UInt64) async throws {
        var generator = SeededGenerator(seed: seed)
        var appended = 0
        while appended < count {
            let stream = "s\(Int.random(in: 0..<streams, using: &generator))"
            let size = Int.random(in: 1...4, using: &generator)
            let events = (0..<size).map { _ in StoreFixtures.event("Tick", "t\(Int.random(in: 0..<25, using: &generator))") }
            _ = try await store.append(events, to: stream)
            appended += size
        }
    }

    @Test(
        "folding stream by stream leaves byte for byte the view applying event by event leaves, also when the index rows spill to disk and the map is released under the folds",
        arguments: [nil, 1])
    func sameAsLogOrder(mappedMemoryLimit: Int?) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, projections: [TaggingProjection()])
        defer { store.close() }
        try await Self.fill(store, count: 3_000, streams: 400, seed: 7)
        let turns = Atomic<Int>(0)
        try await store.rebuildProjections(chunk: 97, sortMemory: 256, mappedMemoryLimit: mappedMemoryLimit) { _, _ in
            turns.add(1, ordering: .relaxed)
        }
        #expect(turns.load(ordering: .relaxed) > 20, "the build went in many batches")
        #expect(store.viewGeneration(of: "tagging") == 1)
        let check = try ProjectionRebuild.run(store)
        #expect(check.events == 3_000)
        #expect(check.differences.isEmpty, "\(check.differences.prefix(5))")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/rebuild-scratch-tagging"), "the sort runs are removed")
        let stats = try store.readViews { txn, databases in try txn.count(databases["streamstats"]) }
        #expect(stats == Set(try store.read(from: 1, limit: 5_000).map(\.streamID)).count)
    }

    @Test("appends during the build are caught up in log order after the snapshot")
    func appendsDuringTheBuild() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, projections: [TaggingProjection()])
        defer { store.close() }
        try await Self.fill(store, count: 4_000, streams: 300, seed: 8)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await Self.fill(store, count: 600, streams: 350, seed: 9) }
            try await store.rebuildProjections(chunk: 50, sortMemory: 1_024)
            try await group.waitForAll()
        }
        #expect(try store.lastPosition() >= 4_600)
        let check = try ProjectionRebuild.run(store)
        #expect(check.differences.isEmpty, "\(check.differences.prefix(5))")
        // The swapped-in view keeps being updated by new appends.
        _ = try await store.append([StoreFixtures.event("Tick", "fresh")], to: "late")
        let tagged = try store.readViews { txn, databases in try txn.value(for: Array("fresh".utf8), in: databases["tags"]) }
        #expect(tagged == Array("late".utf8))
    }

    @Test("a projection version change at open rebuilds stream by stream before the store is returned")
    func atOpen() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        do {
            let store = try EventStore(path: dir.path, projections: [TaggingProjection()])
            try await Self.fill(store, count: 1_500, streams: 200, seed: 10)
            store.close()
        }
        let store = try EventStore(path: dir.path, projections: [TaggingProjection(version: 2)])
        defer { store.close() }
        #expect(store.viewGeneration(of: "tagging") == 1)
        let check = try ProjectionRebuild.run(store)
        #expect(check.events == (try store.lastPosition()) && check.events >= 1_500 && check.differences.isEmpty)
    }

    @Test("an empty log rebuilds to an empty view that then follows appends")
    func emptyLog() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, projections: [TaggingProjection()])
        defer { store.close() }
        try await store.rebuildProjections()
        #expect(store.viewGeneration(of: "tagging") == 1)
        try await Self.fill(store, count: 50, streams: 5, seed: 12)
        let check = try ProjectionRebuild.run(store)
        #expect(check.events == (try store.lastPosition()) && check.differences.isEmpty)
    }

    @Test("a fold that breaks key order fails the rebuild with a clear error, and the live view stays")
    func misorderedFold() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, projections: [TaggingProjection(misordered: true)])
        defer { store.close() }
        try await Self.fill(store, count: 200, streams: 20, seed: 11)
        let head = try store.lastPosition()
        await #expect {
            try await store.rebuildProjections()
        } throws: { error in
            guard case .rebuildFailed(let projection, let reason) = error as? EventStoreError else { return false }
            return projection == "tagging" && reason.contains("key order") && "\(error)".contains("live view is untouched")
        }
        #expect(store.viewGeneration(of: "tagging") == 0)
        #expect(try ProjectionRebuild.run(store).differences.isEmpty)
        _ = try await store.append([StoreFixtures.event()], to: "after")
        #expect(try store.lastPosition() == head + 1)
    }
}
