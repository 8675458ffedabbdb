import TestSupport
import Foundation
import PaylogStore
import Testing

@Suite("Durable idempotency")
struct IdempotencyTests {
    @Test("re-appending stored events after reopening returns the original positions and writes nothing")
    func reappendAfterReopen() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let events = [StoreFixtures.event("Requested", "a"), StoreFixtures.event("AppSwitched", "b")]
        let first: AppendResult
        do {
            let store = try EventStore(path: dir.path)
            _ = try await store.append([StoreFixtures.event()], to: "other")
            first = try await store.append(events, to: "pay", expecting: .noStream)
            _ = try await store.append([StoreFixtures.event()], to: "pay")
            store.close()
        }
        let store = try EventStore(path: dir.path)
        // Even with an expected version that no longer holds, a retry is recognised first.
        let again = try await store.append(events, to: "pay", expecting: .noStream)
        #expect(again.wasAlreadyRecorded)
        #expect(again.positions == first.positions)
        #expect(again.versions == first.versions)
        #expect(!first.wasAlreadyRecorded)
        #expect(try store.lastPosition() == 4)
        store.close()
    }

    @Test("the same event recorded by another actor (the CLI and the server at once) is the first one's, not a conflict")
    func otherActor() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        defer { store.close() }
        let id = UUID()
        let first = StoreFixtures.event("Requested", "original", id: id)
        _ = try await store.append([first], to: "pay")
        let other = NewEvent(
            id: id, type: first.type, payload: first.payload, observedAt: first.observedAt,
            correlationID: first.correlationID, causationID: first.causationID, actor: "http")
        let again = try await store.append([other], to: "pay")
        #expect(again.wasAlreadyRecorded)
        #expect(try store.lastPosition() == 1)
        #expect(try store.event(at: 1)?.actor == "test")
    }

    @Test("the same id with different content is an error and writes nothing")
    func sameIDDifferentContent() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        let id = UUID()
        _ = try await store.append([StoreFixtures.event("Requested", "original", id: id)], to: "pay")
        await #expect { try await store.append([StoreFixtures.event("Requested", "changed", id: id)], to: "pay") } throws: { error in
            guard case EventStoreError.idempotencyConflict(let conflicting, _) = error else { return false }
            return conflicting == id
        }
        await #expect { try await store.append([StoreFixtures.event("Requested", "original", id: id)], to: "another") } throws: { error in
            if case EventStoreError.idempotencyConflict = error { return true }
            return false
        }
        #expect(try store.lastPosition() == 1)
        store.close()
    }

    @Test("an append of which only some ids are stored is an error and writes nothing")
    func partialOverlap() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        let known = StoreFixtures.event("Requested", "x")
        _ = try await store.append([known], to: "pay")
        await #expect { try await store.append([known, StoreFixtures.event()], to: "pay") } throws: { error in
            "\(error)".contains("1 of the append's 2 events are already recorded")
        }
        #expect(try store.lastPosition() == 1)
        store.close()
    }
}
