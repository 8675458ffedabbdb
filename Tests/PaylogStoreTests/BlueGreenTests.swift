import Foundation
import PaylogStore
import Synchronization
import TestSupport
import Testing

@Suite("Blue/green view rebuilds")
struct BlueGreenTests {
    @Test("a rebuild while appends continue: readers never see a half-built view, and the new view is exact")
    func rebuildUnderLoad() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, projections: [CountingProjection()])
        defer { store.close() }
        for batch in 0..<40 {
            _ = try await store.append((0..<50).map { _ in StoreFixtures.event() }, to: "s\(batch % 7)")
        }
        #expect(store.viewGeneration(of: "counting") == 0)
        let probe = Probe()
        try await withThrowingTaskGroup(of: Void.self) { group in
            // Writers keep appending during the rebuild.
            for writer in 0..<8 {
                group.addTask {
                    for round in 0..<60 {
                        _ = try await store.append([StoreFixtures.event(), StoreFixtures.event()], to: "w\(writer)-\(round % 5)")
                    }
                }
            }
            // A reader checks every view it sees is complete: applied exactly once up to at least the head it saw first.
            group.addTask {
                while !probe.stop.load(ordering: .relaxed) {
                    let headBefore = try store.lastPosition()
                    let (applied, last) = try CountingProjection.totals(store)
                    if applied != last || last < headBefore { probe.halfBuilt.add(1, ordering: .relaxed) }
                    probe.reads.add(1, ordering: .relaxed)
                    await Task.yield()
                }
            }
            let turns = Atomic<Int>(0)
            let appendsBefore = store.writerStatistics.appends
            try await store.rebuildProjections(chunk: 100) { _, _ in turns.add(1, ordering: .relaxed) }
            #expect(turns.load(ordering: .relaxed) >= 20, "the green view was built in many turns")
            #expect(store.writerStatistics.appends > appendsBefore, "appends were committed while the green view was built")
            // Let the writers finish, then stop the reader.
            try await Task.sleep(for: .milliseconds(50))
            while store.writerStatistics.appends < 40 + 8 * 60 { try await Task.sleep(for: .milliseconds(10)) }
            probe.stop.store(true, ordering: .relaxed)
            try await group.waitForAll()
        }
        #expect(probe.halfBuilt.load(ordering: .relaxed) == 0)
        #expect(probe.reads.load(ordering: .relaxed) > 0)
        #expect(store.viewGeneration(of: "counting") == 1)
        let head = try store.lastPosition()
        #expect(head == 40 * 50 + 8 * 60 * 2)
        let (applied, last) = try CountingProjection.totals(store)
        #expect(applied == head && last == head)
        for stream in ["s0", "s6", "w0-0", "w7-4"] {
            #expect(try CountingProjection.count(store, stream) == UInt64(try store.readStream(stream).count))
        }
    }

    @Test("a projection whose version changed is rebuilt at open into a new generation; the old one is deleted later")
    func versionChangeAtOpen() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        do {
            let store = try EventStore(path: dir.path, projections: [CountingProjection()])
            for _ in 0..<10 { _ = try await store.append([StoreFixtures.event()], to: "a") }
            #expect(try CountingProjection.count(store, "a") == 10)
            store.close()
        }
        do {
            // Version 2 counts each event twice: a change of meaning.
            let store = try EventStore(path: dir.path, projections: [CountingProjection(version: 2, weight: 2)])
            #expect(store.viewGeneration(of: "counting") == 1)
            #expect(try CountingProjection.count(store, "a") == 20)
            _ = try await store.append([StoreFixtures.event()], to: "a")
            #expect(try CountingProjection.count(store, "a") == 22, "the new view stays current after the swap")
            store.close()
        }
        do {
            // Reopened with the same version: no rebuild, generation stays, the view is intact.
            let store = try EventStore(path: dir.path, projections: [CountingProjection(version: 2, weight: 2)])
            #expect(store.viewGeneration(of: "counting") == 1)
            #expect(try CountingProjection.count(store, "a") == 22)
            let (applied, last) = try CountingProjection.totals(store)
            #expect(applied == 11 && last == 11)
            store.close()
        }
    }

    @Test("several rebuilds in a row keep the store within its database limit and the view exact")
    func repeatedRebuilds() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        for generation in 1...6 {
            let store = try EventStore(path: dir.path, projections: [CountingProjection()])
            _ = try await store.append([StoreFixtures.event()], to: "x")
            try await store.rebuildProjections()
            #expect(store.viewGeneration(of: "counting") == UInt64(generation))
            #expect(try CountingProjection.count(store, "x") == UInt64(generation))
            store.close()
        }
    }
}
