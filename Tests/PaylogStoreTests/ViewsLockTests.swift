import Foundation
@testable import PaylogStore
import TestSupport
import Testing

/// Docs/architecture.md, *View generations across processes*: a second `ViewsLock` on the store's `views.lock`
/// stands for another process that has the store open (open file description locks conflict inside one process).
@Suite("the views lock keeps view generations still while another process has the store open")
struct ViewsLockTests {
    @Test("exclusive excludes every other holder; shared ones coexist; a failed conversion keeps the shared hold")
    func lockModes() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let a = try ViewsLock(directory: dir.path)
        let b = try ViewsLock(directory: dir.path)
        #expect(try a.tryLock(.exclusive))
        #expect(try !b.tryLock(.shared))
        #expect(try a.tryLock(.shared), "a downgrade always succeeds")
        #expect(try b.tryLock(.shared))
        #expect(try !a.tryLock(.exclusive), "b holds it shared")
        // a's failed upgrade kept its shared hold: b cannot take it exclusive either.
        #expect(try !b.tryLock(.exclusive))
        a.unlock()
        #expect(try b.tryLock(.exclusive))
        #expect(try !a.lock(.shared, patience: .milliseconds(50)))
    }

    @Test("a rebuild is refused while another process has the store open, and runs once it has closed it")
    func rebuildNeedsTheStoreAlone() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, projections: [CountingProjection()])
        defer { store.close() }
        for _ in 0..<5 { _ = try await store.append([StoreFixtures.event()], to: "a") }
        let other = try ViewsLock(directory: dir.path)
        #expect(try other.tryLock(.shared), "the store holds it shared, as every open store does")
        await #expect(throws: EventStoreError.viewsInUse(operation: "rebuild the views")) {
            try await store.rebuildProjections()
        }
        #expect(store.viewGeneration(of: "counting") == 0, "nothing was swapped")
        #expect(try CountingProjection.count(store, "a") == 5)
        _ = try await store.append([StoreFixtures.event()], to: "a")
        #expect(try CountingProjection.count(store, "a") == 6, "the live view goes on being written")
        other.unlock()
        try await store.rebuildProjections()
        #expect(store.viewGeneration(of: "counting") == 1)
        #expect(try CountingProjection.count(store, "a") == 6)
        #expect(try other.tryLock(.shared), "after the rebuild the store holds the lock shared again")
    }

    @Test("an open beside another process leaves replaced generations and refuses a view whose version changed")
    func openBesideAnotherProcess() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        do {
            let store = try EventStore(path: dir.path, projections: [CountingProjection()])
            _ = try await store.append([StoreFixtures.event()], to: "a")
            try await store.rebuildProjections()
            #expect(store.viewGeneration(of: "counting") == 1)
            store.close()
        }
        let other = try ViewsLock(directory: dir.path)
        #expect(try other.tryLock(.shared))
        do {
            // Alone, this open would delete generation 0; beside another process it keeps it.
            let store = try EventStore(path: dir.path, projections: [CountingProjection()])
            #expect(try store.environment.read { txn in
                try txn.openDatabase(ViewRegistry.physicalName("counts", generation: 0), create: false) != nil
            })
            #expect(try CountingProjection.count(store, "a") == 1)
            store.close()
        }
        #expect(throws: EventStoreError.viewsInUse(
            operation: "rebuild the counting view, which this release changed (view version 1 → 2), as opening the store does"
        )) {
            _ = try EventStore(path: dir.path, projections: [CountingProjection(version: 2, weight: 2)])
        }
        other.unlock()
        let store = try EventStore(path: dir.path, projections: [CountingProjection(version: 2, weight: 2)])
        defer { store.close() }
        #expect(try CountingProjection.count(store, "a") == 2)
        #expect(try store.environment.read { txn in
            try txn.openDatabase(ViewRegistry.physicalName("counts", generation: 0), create: false) == nil
        }, "alone, the open deleted the replaced generation")
    }

    @Test("an open waits while another process holds the views exclusive, and opens once it lets go")
    func openWaitsForARebuild() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try EventStore(path: dir.path, projections: [CountingProjection()]).close()
        let other = try ViewsLock(directory: dir.path)
        #expect(try other.tryLock(.exclusive))
        // A thread of its own: the open below blocks this one while it waits.
        Thread.detachNewThread {
            usleep(300_000)
            other.unlock()
        }
        let start = ContinuousClock.now
        let store = try EventStore(path: dir.path, projections: [CountingProjection()])
        defer { store.close() }
        #expect(ContinuousClock.now - start >= .milliseconds(250), "the open did not wait")
    }
}
