import Foundation
import Synchronization
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
        #expect(try store.readStream("pay-1").map { try $0.payload } == [Data("one".utf8), Data("two".utf8)])
        #expect(try CountingProjection.totals(store) == (applied: 3, last: 3))
        #expect(try store.verifyChain().isIntact)
    }

    @Test("an id found absent is trusted by the next append only: a later append of the same id is still recognised")
    func absentIDTrustedOnce() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        defer { store.close() }
        let event = StoreFixtures.event()
        let outcome = try await store.withWriteSession { session -> [String] in
            let before = try session.event(id: event.id)
            let first = try session.append([event], to: "pay-1", expecting: .noStream)
            let again = try session.append([event], to: "pay-1", expecting: .any)
            return ["\(before == nil)", "\(first.positions)", "\(again.wasAlreadyRecorded) \(again.positions)"]
        }
        #expect(outcome == ["true", "1...1", "true 1...1"])
        #expect(try store.lastPosition() == 1)
    }

    @Test("an append a projection refuses after it began writing fails alone, as if it had never written")
    func lateFailureLeavesNoTrace() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, projections: [RefusingProjection()])
        defer { store.close() }
        let runs = Mutex(0)
        // The body may run more than once, so it appends the same events each time.
        let first = StoreFixtures.event()
        // The projection applies (and writes) the first event, then refuses the second.
        let poisoned = [StoreFixtures.event(), StoreFixtures.event("Poison")]
        let retry = StoreFixtures.event()
        let outcome = try await store.withWriteSession { session -> [String] in
            runs.withLock { $0 += 1 }
            var notes: [String] = []
            notes.append("a \(try session.append([first], to: "pay-a", expecting: .noStream).positions)")
            do {
                _ = try session.append(poisoned, to: "pay-b", expecting: .noStream)
                notes.append("b unexpected")
            } catch let error as EventStoreError {
                guard case .projectionRefused(let projection, let eventID, _) = error else { throw error }
                notes.append("b refused by \(projection) at \(eventID == poisoned[1].id ? "the poison" : "another event")")
            }
            // Nothing of the refused append is visible: its stream is still empty, its first event unknown.
            notes.append("b known \(try session.event(id: poisoned[0].id) != nil)")
            notes.append("b again \(try session.append([retry], to: "pay-b", expecting: .noStream).positions)")
            let applied = try session.readViews { txn, databases in
                try txn.value(for: Array("applied".utf8), in: databases["refusing-counts"]).map(CountingProjection.decode) ?? 0
            }
            notes.append("applied \(applied)")
            notes.append("appended \(session.eventsAppended)")
            return notes
        }
        #expect(outcome == ["a 1...1", "b refused by refusing at the poison", "b known false", "b again 2...2", "applied 2", "appended 2"])
        // The first run was thrown away once the refusal had poisoned it; the second ran to the end.
        #expect(runs.withLock { $0 } == 2)
        #expect(try store.lastPosition() == 2)
        #expect(try store.read(from: 1, limit: 10).map(\.streamID) == ["pay-a", "pay-b"])
        #expect(try RefusingProjection.applied(store) == 2)
        #expect(try store.verifyChain().isIntact)
        // The writer carries on after the session.
        let next = try await store.append([StoreFixtures.event()], to: "pay-b", expecting: .exact(1))
        #expect(next.positions == 3...3)
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
