import Foundation
import LMDBKit
import TestSupport
import Testing

@testable import PaylogStore

/// Write sessions queued together share one transaction and one fsync, each keeping its own outcome, and appends
/// take turns with them (``Writer``). Each test holds the writer (``WriterHold``), lines jobs up behind it in a
/// chosen order, then lets it go.
@Suite("Session groups", .timeLimit(.minutes(1)))
struct SessionGroupTests {
    private static func text(_ event: RecordedEvent) throws -> String {
        String(decoding: try event.payload, as: UTF8.self)
    }

    /// Runs `body` with a store in a temporary directory and its writer held (``WriterHold``), then lets the writer
    /// go, closes the store and removes the directory, in that order, whether `body` returns or throws (a store
    /// closed while its writer is held would wait for ever). `groupSeconds`: how long a session group takes sessions;
    /// a minute by default, so that however slowly the sessions run here they join one group where time is not what
    /// a test is about (nil: the writer's own 10 ms).
    private static func withHeldStore(
        projections: [any InlineProjection] = [], options: EnvironmentOptions = EventStore.defaultOptions,
        groupSeconds: Double? = 60, _ body: (EventStore, WriterHold) async throws -> Void
    ) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, options: options, projections: projections)
        defer { store.close() }
        if let groupSeconds { store.writer.setSessionGroupSeconds(groupSeconds) }
        let hold = try await WriterHold(store)
        // Runs before the close: defers run last first.
        defer { hold.release() }
        try await body(store, hold)
    }

    @Test("sessions queued together commit once; each sees the ones before it; one that throws leaves the others committed")
    func sessionsShareACommit() async throws {
        struct Abandon: Error {}
        try await Self.withHeldStore(projections: [CountingProjection()]) { (store: EventStore, hold: WriterHold) async throws in
            let runs = SessionRuns(sessions: 4)
            let first = hold.queueSession { session in
                runs.ran(0)
                return try session.append([StoreFixtures.event("Tick", "one")], to: "pay-1", expecting: .noStream).versions
            }
            // Sees the first session's append, not yet committed.
            let second = hold.queueSession { session in
                runs.ran(1)
                return try session.append([StoreFixtures.event("Tick", "two")], to: "pay-1", expecting: .exact(1)).versions
            }
            let third = hold.queueSession { session -> ClosedRange<UInt64> in
                runs.ran(2)
                _ = try session.append([StoreFixtures.event("Tick", "abandoned")], to: "pay-2", expecting: .noStream)
                throw Abandon()
            }
            let fourth = hold.queueSession { session in
                runs.ran(3)
                return try session.append([StoreFixtures.event("Tick", "four")], to: "pay-3", expecting: .noStream).positions
            }
            #expect(hold.queued == 4)
            hold.release()

            #expect(try await first.value() == 1...1)
            #expect(try await second.value() == 2...2)
            await #expect(throws: EventStoreError.self) { try await third.value() }
            #expect(try await fourth.value() == 3...3)
            // The third threw in the first run, before the fourth ran: the group ran again without it.
            #expect(runs.value == [2, 2, 1, 1])
            #expect(store.writerStatistics.sessionCommits == 1)
            #expect(store.writerStatistics.largestSessionGroup == 4)
            #expect(try store.read().map(Self.text) == ["one", "two", "four"])
            #expect(try store.readStream("pay-2").isEmpty)
            #expect(try CountingProjection.totals(store) == (applied: 3, last: 3))
            #expect(try store.verifyChain().isIntact)
        }
    }

    @Test("an append a projection refuses in one session of a group fails alone, as in a session of its own")
    func lateFailureInAGroup() async throws {
        try await Self.withHeldStore(projections: [RefusingProjection()]) { (store: EventStore, hold: WriterHold) async throws in
            let before = hold.queueSession { session in
                try session.append([StoreFixtures.event("Tick", "before")], to: "pay-a", expecting: .noStream).positions
            }
            let poisoned = [StoreFixtures.event("Tick", "written, then refused"), StoreFixtures.event("Poison")]
            let refused = hold.queueSession { session -> [String] in
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
            let after = hold.queueSession { session in
                try session.append([StoreFixtures.event("Tick", "after")], to: "pay-c", expecting: .noStream).positions
            }
            hold.release()

            #expect(try await before.value() == 1...1)
            #expect(try await refused.value() == ["refused", "known false", "retry 2...2"])
            #expect(try await after.value() == 3...3)
            #expect(store.writerStatistics.sessionCommits == 1)
            #expect(try store.read().map(Self.text) == ["before", "retry", "after"])
            #expect(try RefusingProjection.applied(store) == 3)
            #expect(try store.verifyChain().isIntact)
        }
    }

    @Test("an append queued behind sessions is committed before them, and the sessions after it in one group")
    func appendsGoBeforeQueuedSessions() async throws {
        try await Self.withHeldStore { (store: EventStore, hold: WriterHold) async throws in
            let sessions = (0..<3).map { index in
                hold.queueSession { session in
                    try session.append([StoreFixtures.event("Tick", "session \(index)")], to: "upload-\(index)").positions
                }
            }
            let till = hold.queueAppend([StoreFixtures.event("Tick", "till")], to: "till")
            #expect(hold.queued == 4)
            hold.release()

            // The till's append went first, though queued last; the sessions then shared one commit, in their order.
            #expect(try await till.value().positions == 1...1)
            var positions: [ClosedRange<UInt64>] = []
            for session in sessions { positions.append(try await session.value()) }
            #expect(positions == [2...2, 3...3, 4...4])
            #expect(store.writerStatistics.sessionCommits == 1)
            #expect(try store.read().map(Self.text) == ["till", "session 0", "session 1", "session 2"])
        }
    }

    @Test("after a task the appends queued behind it go first, wherever they stand, then the sessions in one group")
    func sessionsAreNotStarvedByAppends() async throws {
        try await Self.withHeldStore { (store: EventStore, hold: WriterHold) async throws in
            let firstAppend = hold.queueAppend([StoreFixtures.event("Tick", "append 1")], to: "till-1")
            let firstSession = hold.queueSession { session in
                try session.append([StoreFixtures.event("Tick", "session 1")], to: "upload-1").positions
            }
            let secondAppend = hold.queueAppend([StoreFixtures.event("Tick", "append 2")], to: "till-2")
            let secondSession = hold.queueSession { session in
                try session.append([StoreFixtures.event("Tick", "session 2")], to: "upload-2").positions
            }
            hold.release()

            // After the holding task the appends go first (both), then the sessions, in one group.
            #expect(try await firstAppend.value().positions == 1...1)
            #expect(try await secondAppend.value().positions == 2...2)
            #expect(try await firstSession.value() == 3...3)
            #expect(try await secondSession.value() == 4...4)
            #expect(store.writerStatistics.sessionCommits == 1)
            #expect(store.writerStatistics.commits == 1)
        }
    }

    @Test("a group stops taking sessions once its sessions have run for about 10 ms")
    func groupsAreBoundedInTime() async throws {
        try await Self.withHeldStore(groupSeconds: nil) { (store: EventStore, hold: WriterHold) async throws in
            let sessions = (0..<6).map { index in
                hold.queueSession { session in
                    // Each session takes at least 4 ms: at most three fit in the 10 ms a group takes sessions for.
                    Thread.sleep(forTimeInterval: 0.004)
                    _ = try session.append([StoreFixtures.event("Tick", "session \(index)")], to: "upload-\(index)")
                }
            }
            hold.release()
            for session in sessions { try await session.value() }

            #expect(store.writerStatistics.sessions == 6)
            #expect(store.writerStatistics.largestSessionGroup <= 3)
            #expect(store.writerStatistics.sessionCommits >= 2)
            #expect(try store.read().map(Self.text) == (0..<6).map { "session \($0)" })
        }
    }

    @Test("a group stops taking sessions once its sessions have appended 128 events")
    func groupsAreBoundedInEvents() async throws {
        try await Self.withHeldStore { (store: EventStore, hold: WriterHold) async throws in
            let sessions = (0..<3).map { index in
                hold.queueSession { session in
                    let events = (0..<100).map { StoreFixtures.event("Tick", "session \(index) event \($0)") }
                    _ = try session.append(events, to: "upload-\(index)", expecting: .noStream)
                }
            }
            hold.release()
            for session in sessions { try await session.value() }

            // 100 events, under 128: the second joins; 200 then: the third waits for the next commit.
            #expect(Writer.sessionGroupEvents == 128)
            #expect(store.writerStatistics.sessionCommits == 2)
            #expect(store.writerStatistics.largestSessionGroup == 2)
            #expect(try store.lastPosition() == 300)
            #expect(try store.verifyChain().isIntact)
        }
    }

    @Test("when a group's transaction fails as a whole (the map cannot grow), each session runs again alone: only the one too large fails")
    func wholeGroupFailureIsNotBlamedOnOthers() async throws {
        let size = 2 << 20
        let options = EnvironmentOptions(initialMapSize: size, maximumMapSize: size, mappedMemoryBudget: nil)
        try await Self.withHeldStore(options: options) { (store: EventStore, hold: WriterHold) async throws in
            let runs = SessionRuns(sessions: 4)
            let small = { (index: Int, name: String) in
                hold.queueSession { session in
                    runs.ran(index)
                    return try session.append([StoreFixtures.event("Tick", name)], to: name, expecting: .noStream).positions
                }
            }
            let before = small(0, "before")
            let beside = small(1, "beside")
            // 600 incompressible 4 KiB payloads: more than the 2 MiB map can hold.
            var generator = SystemRandomNumberGenerator()
            let large = (0..<600).map { _ in
                let words = (0..<512).map { _ in generator.next() }
                return NewEvent(
                    id: UUID(), type: "Tick", payload: words.withUnsafeBytes { Data($0) },
                    observedAt: Timestamp(microseconds: 1_700_000_000_000_000), correlationID: "c", causationID: "c", actor: "test")
            }
            let tooLarge = hold.queueSession { session in
                runs.ran(2)
                _ = try session.append(large, to: "too-large", expecting: .noStream)
            }
            let after = small(3, "after")
            hold.release()

            #expect(try await before.value() == 1...1)
            #expect(try await beside.value() == 2...2)
            await #expect {
                try await tooLarge.value()
            } throws: { error in
                guard case .storage(let cause) = error as? EventStoreError else { return false }
                return cause.isMapFull
            }
            #expect(try await after.value() == 3...3)
            // The first two ran in the group that failed, then each alone; the large one in the group and alone (the map
            // grows by running the body again only while it can grow); the last in a group of its own after them.
            #expect(runs.value[0] == 2 && runs.value[1] == 2 && runs.value[3] == 1, "\(runs.value)")
            #expect(try store.read().map(Self.text) == ["before", "beside", "after"])
            #expect(try store.verifyChain().isIntact)
        }
    }

    @Test("a session on a closed store fails with closed")
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
