import Foundation
import TestSupport
import Testing

@testable import PaylogStore

/// Write sessions queued together share one transaction and one fsync, each keeping its own outcome, and appends
/// take turns with them (``Writer``).
@Suite("Session groups")
struct SessionGroupTests {
    private static func text(_ event: RecordedEvent) throws -> String {
        String(decoding: try event.payload, as: UTF8.self)
    }

    /// Queues `count` sessions behind `hold`, one after the other, session `index` running `body(index, session)`.
    private static func queueSessions<R: Sendable>(
        _ count: Int, on store: EventStore, behind hold: WriterHold,
        _ body: @escaping @Sendable (Int, WriteSession) throws -> R
    ) async throws -> [Task<R, any Error>] {
        var sessions: [Task<R, any Error>] = []
        for index in 0..<count {
            sessions.append(Task { try await store.withWriteSession { try body(index, $0) } })
            try await hold.waitUntilQueued(index + 1)
        }
        return sessions
    }

    @Test("sessions queued together commit once; each sees the ones before it; one that throws leaves the others committed")
    func sessionsShareACommit() async throws {
        struct Abandon: Error {}
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, projections: [CountingProjection()])
        defer { store.close() }
        let runs = SessionRuns(sessions: 4)
        let hold = try await WriterHold(store)
        let first = Task {
            try await store.withWriteSession { session in
                runs.ran(0)
                return try session.append([StoreFixtures.event("Tick", "one")], to: "pay-1", expecting: .noStream).versions
            }
        }
        try await hold.waitUntilQueued(1)
        // Sees the first session's append, not yet committed.
        let second = Task {
            try await store.withWriteSession { session in
                runs.ran(1)
                return try session.append([StoreFixtures.event("Tick", "two")], to: "pay-1", expecting: .exact(1)).versions
            }
        }
        try await hold.waitUntilQueued(2)
        let third = Task {
            try await store.withWriteSession { session -> ClosedRange<UInt64> in
                runs.ran(2)
                _ = try session.append([StoreFixtures.event("Tick", "abandoned")], to: "pay-2", expecting: .noStream)
                throw Abandon()
            }
        }
        try await hold.waitUntilQueued(3)
        let fourth = Task {
            try await store.withWriteSession { session in
                runs.ran(3)
                return try session.append([StoreFixtures.event("Tick", "four")], to: "pay-3", expecting: .noStream).positions
            }
        }
        try await hold.waitUntilQueued(4)
        await hold.release()

        #expect(try await first.value == 1...1)
        #expect(try await second.value == 2...2)
        await #expect(throws: EventStoreError.self) { try await third.value }
        #expect(try await fourth.value == 3...3)
        // The third threw in the first run, before the fourth ran: the group ran again without it.
        #expect(runs.value == [2, 2, 1, 1])
        #expect(store.writerStatistics.sessionCommits == 1)
        #expect(store.writerStatistics.largestSessionGroup == 4)
        #expect(try store.read().map(Self.text) == ["one", "two", "four"])
        #expect(try store.readStream("pay-2").isEmpty)
        #expect(try CountingProjection.totals(store) == (applied: 3, last: 3))
        #expect(try store.verifyChain().isIntact)
    }

    @Test("an append a projection refuses in one session of a group fails alone, as in a session of its own")
    func lateFailureInAGroup() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, projections: [RefusingProjection()])
        defer { store.close() }
        let hold = try await WriterHold(store)
        let before = Task {
            try await store.withWriteSession { session in
                try session.append([StoreFixtures.event("Tick", "before")], to: "pay-a", expecting: .noStream).positions
            }
        }
        try await hold.waitUntilQueued(1)
        let poisoned = [StoreFixtures.event("Tick", "written, then refused"), StoreFixtures.event("Poison")]
        let refused = Task {
            try await store.withWriteSession { session -> [String] in
                var notes: [String] = []
                do {
                    _ = try session.append(poisoned, to: "pay-b", expecting: .noStream)
                    notes.append("unexpected")
                } catch let error as EventStoreError {
                    guard case .projectionRefused = error else { throw error }
                    notes.append("refused")
                }
                notes.append("known \(try session.event(id: poisoned[0].id) != nil)")
                notes.append("retry \(try session.append([StoreFixtures.event("Tick", "retry")], to: "pay-b", expecting: .noStream).positions)")
                return notes
            }
        }
        try await hold.waitUntilQueued(2)
        let after = Task {
            try await store.withWriteSession { session in
                try session.append([StoreFixtures.event("Tick", "after")], to: "pay-c", expecting: .noStream).positions
            }
        }
        try await hold.waitUntilQueued(3)
        await hold.release()

        #expect(try await before.value == 1...1)
        #expect(try await refused.value == ["refused", "known false", "retry 2...2"])
        #expect(try await after.value == 3...3)
        #expect(store.writerStatistics.sessionCommits == 1)
        #expect(try store.read().map(Self.text) == ["before", "retry", "after"])
        #expect(try RefusingProjection.applied(store) == 3)
        #expect(try store.verifyChain().isIntact)
    }

    @Test("an append queued behind sessions is committed before them, and the sessions after it in one group")
    func appendsGoBeforeQueuedSessions() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        defer { store.close() }
        let hold = try await WriterHold(store)
        let sessions = try await Self.queueSessions(3, on: store, behind: hold) { index, session in
            try session.append([StoreFixtures.event("Tick", "session \(index)")], to: "upload-\(index)").positions
        }
        let till = Task { try await store.append([StoreFixtures.event("Tick", "till")], to: "till").positions }
        try await hold.waitUntilQueued(4)
        await hold.release()

        // The till's append went first, though queued last; the sessions then shared one commit, in their order.
        #expect(try await till.value == 1...1)
        var positions: [ClosedRange<UInt64>] = []
        for session in sessions { positions.append(try await session.value) }
        #expect(positions == [2...2, 3...3, 4...4])
        #expect(store.writerStatistics.sessionCommits == 1)
        #expect(try store.read().map(Self.text) == ["till", "session 0", "session 1", "session 2"])
    }

    @Test("a group stops taking sessions once its sessions have run for about 10 ms")
    func groupsAreBoundedInTime() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        defer { store.close() }
        let hold = try await WriterHold(store)
        let sessions = try await Self.queueSessions(6, on: store, behind: hold) { index, session in
            // Each session takes at least 4 ms: at most three fit in the 10 ms a group takes sessions for.
            Thread.sleep(forTimeInterval: 0.004)
            _ = try session.append([StoreFixtures.event("Tick", "session \(index)")], to: "upload-\(index)")
        }
        await hold.release()
        for session in sessions { try await session.value }

        #expect(store.writerStatistics.sessions == 6)
        #expect(store.writerStatistics.largestSessionGroup <= 3)
        #expect(store.writerStatistics.sessionCommits >= 2)
        #expect(try store.read().map(Self.text) == (0..<6).map { "session \($0)" })
    }

    @Test("a group stops taking sessions once its sessions have appended 128 events")
    func groupsAreBoundedInEvents() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        defer { store.close() }
        let hold = try await WriterHold(store)
        let sessions = try await Self.queueSessions(3, on: store, behind: hold) { index, session in
            let events = (0..<100).map { StoreFixtures.event("Tick", "session \(index) event \($0)") }
            _ = try session.append(events, to: "upload-\(index)", expecting: .noStream)
        }
        await hold.release()
        for session in sessions { try await session.value }

        // 100 events, under 128: the second joins; 200 then: the third waits for the next commit.
        #expect(Writer.sessionGroupEvents == 128)
        #expect(store.writerStatistics.sessionCommits == 2)
        #expect(store.writerStatistics.largestSessionGroup == 2)
        #expect(try store.lastPosition() == 300)
        #expect(try store.verifyChain().isIntact)
    }

    @Test("a session queued on a closed store fails with closed")
    func closedStore() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        store.close()
        await #expect(throws: EventStoreError.closed) {
            try await store.withWriteSession { session in
                _ = try session.append([StoreFixtures.event()], to: "pay-1")
            }
        }
    }
}
