import Foundation
@testable import PaylogStore
import Synchronization
import TestSupport
import Testing

@Suite("Stream-folding rebuilds")
struct StreamFoldingRebuildTests {
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
        "folding each stream in memory leaves byte for byte the view applying event by event leaves, also when the rows spill to disk and the map is released under the folds",
        arguments: [nil, 1])
    func sameAsLogOrder(mappedMemoryLimit: Int?) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, projections: [TaggingProjection()])
        defer { store.close() }
        try await Self.fill(store, count: 3_000, streams: 400, seed: 7)
        let turns = Atomic<Int>(0)
        let clock = ContinuousClock()
        let start = clock.now
        let timings = try await store.rebuildProjections(
            chunk: 97, rowsPerTransaction: 97, sortMemory: 256, mappedMemoryLimit: mappedMemoryLimit
        ) { _, _ in
            turns.add(1, ordering: .relaxed)
        }
        let elapsed = (clock.now - start) / .seconds(1)
        // Every phase took some time, none more than the whole, and the whole no more than the call.
        let phases = [timings.streamEnds, timings.fold, timings.write, timings.catchUp]
        #expect(phases.allSatisfy { $0 > 0 }, "\(timings)")
        #expect(phases.reduce(0, +) <= timings.total && timings.total <= elapsed, "\(timings), call \(elapsed) s")
        // One turn per page read by the first part (3,000 events: one page) and per chunk of 97 rows written
        // (400 streams' own rows and 25 tags).
        #expect(turns.load(ordering: .relaxed) >= 1 + 425 / 97, "the rows were written in several chunks")
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

    @Test("a projection version change at open rebuilds by folding streams before the store is returned")
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
        let timings = try await store.rebuildProjections()
        // Nothing to fold or write: only the catch-up ran (it makes the empty view live).
        #expect(timings.streamEnds == 0 && timings.fold == 0 && timings.write == 0, "\(timings)")
        #expect(timings.catchUp > 0 && timings.catchUp <= timings.total, "\(timings)")
        #expect(store.viewGeneration(of: "tagging") == 1)
        try await Self.fill(store, count: 50, streams: 5, seed: 12)
        let check = try ProjectionRebuild.run(store)
        #expect(check.events == (try store.lastPosition()) && check.differences.isEmpty)
    }

    @Test("two streams writing one key as their own row fail the rebuild with a clear error, and the live view stays")
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
            return projection == "tagging" && reason.contains("key same of streamstats")
                && "\(error)".contains("live view is untouched")
        }
        #expect(store.viewGeneration(of: "tagging") == 0)
        #expect(try ProjectionRebuild.run(store).differences.isEmpty)
        _ = try await store.append([StoreFixtures.event()], to: "after")
        #expect(try store.lastPosition() == head + 1)
    }

    /// Every key and value of `projection`'s live view, database by database in its order.
    static func liveRows(_ store: EventStore, _ projection: TaggingProjection) throws -> [ViewRow] {
        try store.readViews { txn, databases in
            try projection.databaseNames.flatMap { name in
                try txn.entries(of: databases[name]).map { ViewRow(database: name, key: $0.key, value: $0.value) }
            }
        }
    }

    /// Expects the build's merged rows to be exactly the rows the live view holds, in order.
    static func expectLiveRows(
        _ build: LogOrderBuild<TaggingProjection>, _ store: EventStore, _ projection: TaggingProjection
    ) throws {
        let sorter = build.merged()
        var merged: [ViewRow] = []
        while case let rows = try sorter.nextBatch(500).viewRows, !rows.isEmpty { merged += rows }
        let live = try liveRows(store, projection)
        #expect(merged.count == live.count)
        #expect(zip(merged, live).allSatisfy { $0.database == $1.database && $0.key == $1.key && $0.value == $1.value })
    }

    @Test(
        "any number of parts and any limit on open streams give the live view's rows; streams over the limit are deferred and folded on their own",
        arguments: [(parts: 1, open: 100_000, ends: true), (parts: 2, open: 3, ends: true), (parts: 3, open: 1, ends: true),
                    (parts: 2, open: 40, ends: true), (parts: 2, open: 40, ends: false), (parts: 1, open: 100_000, ends: false)])
    func partsAndOpenLimit(parts: Int, open: Int, ends: Bool) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let projection = TaggingProjection()
        let store = try EventStore(path: dir.path, projections: [projection])
        defer { store.close() }
        try await Self.fill(store, count: 2_500, streams: 150, seed: UInt64(parts * 1_000 + open))
        let snapshot = try store.lastPosition()
        let build = LogOrderBuild(
            projection, snapshot: snapshot, scratchDirectory: dir.path + "/scratch", parts: parts, sortMemory: 4_096,
            maximumOpen: open, mappedBudget: 1, streamEndsBytes: ends ? LogOrderBuild<TaggingProjection>.defaultStreamEndsBytes : 0)
        defer { build.close() }
        try build.foldBlocking(store.environment, store.databases) { _ in }
        let deferred = build.partitions.map(\.deferredCount).reduce(0, +)
        if open < 150 / parts {
            #expect(deferred > 0)
            #expect(build.folded > snapshot, "a deferred stream's first events are folded again on their own")
        } else {
            #expect(deferred == 0)
            #expect(build.folded == snapshot, "every event folded once")
        }
        #expect(build.partitions.allSatisfy { $0.mostOpen <= open })
        try Self.expectLiveRows(build, store, projection)
    }

    @Test(
        "more ranges than threads: each range is folded once, streams open at a range's end are folded on their own, and the rows are the live view's",
        arguments: [(parts: 2, ranges: 9), (parts: 1, ranges: 4), (parts: 3, ranges: 3), (parts: 2, ranges: 2_500)])
    func moreRangesThanThreads(parts: Int, ranges: Int) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let projection = TaggingProjection()
        let store = try EventStore(path: dir.path, projections: [projection])
        defer { store.close() }
        try await Self.fill(store, count: 2_500, streams: 120, seed: UInt64(ranges))
        let snapshot = try store.lastPosition()
        let build = LogOrderBuild(
            projection, snapshot: snapshot, scratchDirectory: dir.path + "/scratch", parts: parts, ranges: ranges,
            sortMemory: 4_096)
        defer { build.close() }
        let reported = Mutex<UInt64>(0)
        try build.foldBlocking(store.environment, store.databases) { read in reported.withLock { $0 = max($0, read) } }
        #expect(build.partitions.count == min(ranges, Int(snapshot)))
        #expect(build.partitions.map(\.range.lowerBound) == build.partitions.map(\.range.lowerBound).sorted())
        #expect(build.partitions.map(\.read) == build.partitions.map { UInt64($0.range.count) }, "every range read once, whole")
        if build.partitions.count > 1 {
            #expect(build.partitions.dropLast().contains { $0.deferredCount > 0 }, "streams straddling a range's end")
            #expect(build.folded > snapshot, "those streams' events before the end are folded again on their own")
        }
        if parts == 1 { #expect(reported.withLock { $0 } == snapshot, "the one thread reports every event read") }
        try Self.expectLiveRows(build, store, projection)
    }

    @Test("a stream appended to past the snapshot is folded only up to the snapshot", arguments: [true, false])
    func streamPastTheSnapshot(ends: Bool) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let projection = TaggingProjection()
        let store = try EventStore(path: dir.path, projections: [projection])
        defer { store.close() }
        _ = try await store.append([StoreFixtures.event("Tick", "a"), StoreFixtures.event("Tick", "b")], to: "long")
        _ = try await store.append([StoreFixtures.event("Tick", "c")], to: "short")
        let snapshot = try store.lastPosition()
        _ = try await store.append([StoreFixtures.event("Tick", "d")], to: "long")
        let build = LogOrderBuild(
            projection, snapshot: snapshot, scratchDirectory: dir.path + "/scratch",
            streamEndsBytes: ends ? LogOrderBuild<TaggingProjection>.defaultStreamEndsBytes : 0)
        defer { build.close() }
        try build.foldBlocking(store.environment, store.databases) { _ in }
        let sorter = build.merged()
        var rows: [ViewRow] = []
        while case let next = try sorter.nextBatch(100).viewRows, !next.isEmpty { rows += next }
        let stats = rows.filter { $0.database == "streamstats" }
        #expect(stats.map(\.key) == [Array("long".utf8), Array("short".utf8)])
        #expect(stats.first?.value == TaggingProjection.stats(count: 2, last: 2), "the event after the snapshot is not folded")
        #expect(rows.filter { $0.database == "tags" }.map(\.key) == ["a", "b", "c"].map { Array($0.utf8) })
    }

    @Test("the log is cut into nearly equal ranges of positions that cover it once")
    func ranges() {
        for (snapshot, parts) in [(UInt64(1), 2), (2, 2), (3, 2), (10, 3), (1_000_000, 2), (7, 7), (5, 9)] {
            let ranges = LogOrderBuild<TaggingProjection>.ranges(of: snapshot, parts: parts)
            #expect(ranges.count == min(parts, Int(snapshot)))
            #expect(ranges.first?.lowerBound == 1 && ranges.last?.upperBound == snapshot)
            #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound + 1 == $1.lowerBound })
            let lengths = ranges.map(\.count)
            #expect(lengths.max()! - lengths.min()! <= 1)
        }
        #expect(LogOrderBuild<TaggingProjection>.ranges(of: 0, parts: 2).isEmpty)
    }
}
