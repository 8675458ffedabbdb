import Foundation
import PaylogStore
import TestSupport
import Testing

@Suite("Write sessions")
struct WriteSessionTests {
    @Test("a session sees its own appends, keeps each append's checks, and commits all that succeeded at once")
    func readYourWrites() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, projections: [CountingProjection()])
        defer { store.close() }
        _ = try await store.append([StoreFixtures.event()], to: "before", expecting: .noStream)
        let first = StoreFixtures.event("Requested", "one")
        let outcome = try await store.withWriteSession { session -> [String] in
            var notes: [String] = []
            let a = try session.append([first], to: "pay-1", expecting: .noStream)
            notes.append("a \(a.positions)")
            // Read-your-writes: the event and the inline view are visible before the commit.
            notes.append("id \(try session.event(id: first.id)?.position ?? 0)")
            let count = try session.readViews { txn, databases in
                try txn.value(for: Array("pay-1".utf8), in: databases["counts"]).map(CountingProjection.decode) ?? 0
            }
            notes.append("count \(count)")
            // A refused append (wrong version) leaves nothing and does not stop the others.
            do {
                _ = try session.append([StoreFixtures.event()], to: "pay-1", expecting: .noStream)
                notes.append("unexpected")
            } catch let error as EventStoreError {
                guard case .wrongExpectedVersion(_, _, let actual) = error else { throw error }
                notes.append("refused at \(actual)")
            }
            let b = try session.append([StoreFixtures.event("CallbackReceived", "two")], to: "pay-1", expecting: .exact(1))
            notes.append("b \(b.versions)")
            // A retried append of the same ids is recognised inside the session too.
            notes.append("again \(try session.append([first], to: "pay-1", expecting: .any).wasAlreadyRecorded)")
            notes.append("appended \(session.eventsAppended)")
            return notes
        }
        #expect(outcome == ["a 2...2", "id 2", "count 1", "refused at 1", "b 2...2", "again true", "appended 2"])
        #expect(try store.lastPosition() == 3)
        #expect(try store.readStream("pay-1").map(\.payload) == [Data("one".utf8), Data("two".utf8)])
        #expect(try CountingProjection.totals(store) == (applied: 3, last: 3))
        #expect(try store.verifyChain().isIntact)
    }

    @Test("when the session's body throws, nothing it appended is kept")
    func throwingBodyKeepsNothing() async throws {
        struct Abandon: Error {}
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, projections: [CountingProjection()])
        defer { store.close() }
        await #expect(throws: EventStoreError.self) {
            try await store.withWriteSession { session in
                _ = try session.append([StoreFixtures.event()], to: "pay-1", expecting: .noStream)
                throw Abandon()
            }
        }
        #expect(try store.lastPosition() == 0)
        #expect(try CountingProjection.totals(store) == (applied: 0, last: 0))
        // The writer carries on.
        _ = try await store.append([StoreFixtures.event()], to: "pay-1", expecting: .noStream)
        #expect(try store.lastPosition() == 1)
    }
}
