import TestSupport
import Foundation
import PaylogStore
import Testing

@Suite("Appending")
struct AppendTests {
    @Test("versions and positions are 1-based, gap-free, and the envelope reads back exactly")
    func envelopeRoundTrip() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        let first = StoreFixtures.event("Requested", "one")
        let a = try await store.append([first, StoreFixtures.event("AppSwitched", "two")], to: "pay-1", expecting: .noStream)
        let b = try await store.append([StoreFixtures.event("Requested", "three")], to: "pay-2", expecting: .noStream)
        let c = try await store.append([StoreFixtures.event("CallbackReceived", "four")], to: "pay-1", expecting: .exact(2))
        #expect(a.positions == 1...2 && a.versions == 1...2)
        #expect(b.positions == 3...3 && b.versions == 1...1)
        #expect(c.positions == 4...4 && c.versions == 3...3)
        let stored = try #require(try store.event(id: first.id))
        #expect(stored.position == 1 && stored.version == 1 && stored.streamID == "pay-1")
        #expect(try stored.type == "Requested" && stored.payload == Data("one".utf8))
        #expect(stored.observedAt == first.observedAt && stored.correlationID == "corr")
        #expect(stored.causationID == "cause" && stored.actor == "test" && stored.hash != .genesis)
        #expect(stored.recordedAt.microseconds > 1_700_000_000_000_000)
        #expect(try store.event(at: 4)?.payload == Data("four".utf8))
        #expect(try store.event(at: 5) == nil)
        #expect(try store.lastPosition() == 4)
        #expect(try store.version(of: "pay-1") == 3)
        #expect(try store.version(of: "nobody") == 0)
        store.close()
    }

    @Test("a wrong expected version fails with the actual version and writes nothing")
    func wrongExpectedVersion() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        _ = try await store.append([StoreFixtures.event()], to: "s", expecting: .noStream)
        await #expect(throws: EventStoreError.wrongExpectedVersion(stream: "s", expected: .noStream, actual: 1)) {
            try await store.append([StoreFixtures.event()], to: "s", expecting: .noStream)
        }
        await #expect(throws: EventStoreError.wrongExpectedVersion(stream: "s", expected: .exact(5), actual: 1)) {
            try await store.append([StoreFixtures.event()], to: "s", expecting: .exact(5))
        }
        await #expect(throws: EventStoreError.wrongExpectedVersion(stream: "t", expected: .exact(1), actual: 0)) {
            try await store.append([StoreFixtures.event()], to: "t", expecting: .exact(1))
        }
        #expect(try store.lastPosition() == 1)
        store.close()
    }

    @Test("many concurrent writers racing on one stream: no lost and no duplicated event, versions gap-free")
    func concurrentWritersWithConflicts() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        let writers = 32
        let appendsEach = 15
        _ = try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var conflicts = 0
                    var done = 0
                    while done < appendsEach {
                        let version = try store.version(of: "contended")
                        do {
                            _ = try await store.append(
                                [StoreFixtures.event("Tick", "w\(writer)-\(done)")], to: "contended",
                                expecting: version == 0 ? .noStream : .exact(version))
                            done += 1
                        } catch EventStoreError.wrongExpectedVersion(_, _, let actual) {
                            #expect(actual > version)
                            conflicts += 1
                        }
                    }
                    return conflicts
                }
            }
            return try await group.reduce(0, +)
        }
        let events = try store.readStream("contended")
        #expect(events.count == writers * appendsEach)
        #expect(events.map(\.version) == Array(1...UInt64(writers * appendsEach)))
        #expect(try Set(events.map { String(decoding: try $0.payload, as: UTF8.self) }).count == writers * appendsEach)
        #expect(try store.lastPosition() == UInt64(writers * appendsEach))
        #expect(try store.verifyChain().isIntact)
        store.close()
    }

    @Test("concurrent appends to distinct streams are grouped into shared commits; positions stay gap-free")
    func groupCommit() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<64 {
                group.addTask {
                    for round in 0..<10 {
                        _ = try await store.append([StoreFixtures.event("Tick", "\(task)-\(round)")], to: "stream-\(task)")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try store.lastPosition() == 640)
        let all = try store.read(from: 1, limit: 10_000)
        #expect(all.map(\.position) == Array(1...640))
        #expect(store.writerStatistics.appends == 640)
        #expect(store.writerStatistics.commits <= 640)
        #expect(store.writerStatistics.gatheringWaits < store.writerStatistics.commits)
        store.close()
    }

    @Test("a lone caller appending in a loop never makes the writer wait for company")
    func loneCallerIsNotGathered() async throws {
        // The writer used to count queued appends after answering the callers: a caller that appended again at
        // once was counted twice, and the writer waited half a commit per append for a second caller.
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        for round in 0..<60 {
            _ = try await store.append([StoreFixtures.event("Tick", "\(round)")], to: "lone")
        }
        #expect(store.writerStatistics.commits == 60)
        #expect(store.writerStatistics.gatheringWaits == 0)
        store.close()
    }

    @Test("the writer's CPU time is read from its thread's clock while it runs, and kept once it has stopped")
    func writerCPUTime() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        let before = store.writerStatistics.writerCPUSeconds
        let payload = String(repeating: "x", count: 4_000)
        for round in 0..<200 {
            _ = try await store.append([StoreFixtures.event("Tick", "\(round)\(payload)")], to: "cpu-\(round % 7)")
        }
        let during = store.writerStatistics.writerCPUSeconds
        #expect(during > before)
        store.close()
        let stopped = store.writerStatistics.writerCPUSeconds
        #expect(stopped >= during)
        // Once the thread is gone its clock is too: the figure stays what the thread had used, whatever this
        // thread spends.
        #expect((0..<200_000).reduce(0, &+) > 0)
        #expect(store.writerStatistics.writerCPUSeconds == stopped)
    }

    @Test("an append that fails alone inside a group does not disturb the others")
    func failureIsolatedInGroup() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        _ = try await store.append([StoreFixtures.event()], to: "taken", expecting: .noStream)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<40 {
                group.addTask {
                    let stream = task % 2 == 0 ? "taken" : "free-\(task)"
                    return (try? await store.append([StoreFixtures.event()], to: stream, expecting: .noStream)) != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 20)
        #expect(try store.lastPosition() == 21)
        #expect(try store.verifyChain().isIntact)
        store.close()
    }

    @Test("an append a projection refuses after it began writing fails alone; the rest of its group commits")
    func lateFailureIsolatedInGroup() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, projections: [RefusingProjection()])
        // Every fifth append carries a poisoned event, in third place of three, so the projection has applied
        // two of its events (and the writer written their records) before it refuses.
        let outcomes = await withTaskGroup(of: (Int, String).self) { group in
            for task in 0..<60 {
                group.addTask {
                    let poisoned = task % 5 == 0
                    let events = [
                        StoreFixtures.event("Tick", "\(task)-a"), StoreFixtures.event("Tick", "\(task)-b"),
                        StoreFixtures.event(poisoned ? "Poison" : "Tick", "\(task)-c"),
                    ]
                    do throws(EventStoreError) {
                        _ = try await store.append(events, to: "stream-\(task)")
                        return (task, "appended")
                    } catch {
                        // The refusal names the projection and the poisoned event.
                        if case .projectionRefused(let projection, let eventID, let reason) = error,
                            projection == "refusing", eventID == events[2].id, reason.contains("Refusal")
                        {
                            return (task, "refused")
                        }
                        return (task, "failed: \(error)")
                    }
                }
            }
            return await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes.count == 60)
        for (task, outcome) in outcomes { #expect(outcome == (task % 5 == 0 ? "refused" : "appended"), "task \(task)") }
        // The groups really shared commits, so refusals happened inside groups with other appends.
        #expect(store.writerStatistics.largestGroup > 1)
        #expect(try store.lastPosition() == 48 * 3)
        #expect(try store.read(from: 1, limit: 1_000).map(\.position) == Array(1...144))
        #expect(try RefusingProjection.applied(store) == 144)
        #expect(try store.read(from: 1, limit: 1_000).allSatisfy { $0.type == "Tick" })
        for task in stride(from: 0, to: 60, by: 5) {
            #expect(try store.readStream("stream-\(task)").isEmpty)
        }
        #expect(try store.verifyChain().isIntact)
        // The poisoned streams are still free: a clean append to one starts at version 1.
        let retry = try await store.append([StoreFixtures.event()], to: "stream-0", expecting: .noStream)
        #expect(retry.versions == 1...1)
        store.close()
    }

    @Test("bad appends are rejected with a clear error: empty, bad stream id, duplicate id in one append")
    func badAppends() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        await #expect(throws: EventStoreError.emptyAppend(stream: "s")) { try await store.append([], to: "s") }
        await #expect { try await store.append([StoreFixtures.event()], to: "") } throws: { error in
            "\(error)".contains("is empty")
        }
        await #expect { try await store.append([StoreFixtures.event()], to: String(repeating: "x", count: 201)) } throws: { error in
            "\(error)".contains("201 bytes")
        }
        await #expect { try await store.append([StoreFixtures.event()], to: "a\u{0}b") } throws: { error in
            "\(error)".contains("NUL")
        }
        let id = UUID()
        await #expect(throws: EventStoreError.duplicateEventInAppend(eventID: id)) {
            try await store.append([StoreFixtures.event(id: id), StoreFixtures.event(id: id)], to: "s")
        }
        #expect(try store.lastPosition() == 0)
        store.close()
    }
}
