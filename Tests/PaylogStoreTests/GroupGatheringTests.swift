import Foundation
import LMDBKit
import TestSupport
import Testing

@testable import PaylogStore

/// The writer's group grows while it is written: appends that queue after its transaction opened join it
/// (``Writer/appendGroup(_:skipping:in:databases:gather:)``'s `gather`), in order, in the same commit.
@Suite("Group gathering")
struct GroupGatheringTests {
    private static func request(_ stream: String, _ text: String, expected: ExpectedVersion = .any) -> AppendRequest {
        AppendRequest(streamID: stream, events: [StoreFixtures.event("Tick", text)], expected: expected) { _ in }
    }

    /// What one group, started with an append of "first" to `pay-1` in a fresh store and grown by `gather`, left.
    private struct Outcome {
        var results: [Result<AppendResult, EventStoreError>]
        var groupSize: Int
        var stored: [RecordedEvent]
        var chainIntact: Bool
    }

    private static func runGroup(gather: (Int) -> [AppendRequest]) throws -> Outcome {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try EventStore(path: directory.path)
        defer { store.close() }
        let (results, size) = try store.environment.write { txn in
            var group = [request("pay-1", "first")]
            let results = try Writer.appendGroup(&group, skipping: [:], in: txn, databases: store.databases, gather: gather)
            return (results, group.count)
        }
        return Outcome(results: results, groupSize: size, stored: try store.read(), chainIntact: try store.verifyChain().isIntact)
    }

    private static func texts(_ events: [RecordedEvent]) throws -> [String] {
        try events.map { String(decoding: try $0.payload, as: UTF8.self) }
    }

    @Test("appends gathered while the group is written join it in order, and gathering stops when none come")
    func gatheredAppendsJoinTheGroup() throws {
        var calls: [Int] = []
        let outcome = try Self.runGroup { taken in
            calls.append(taken)
            switch calls.count {
            case 1: return [Self.request("pay-2", "second"), Self.request("pay-1", "third")]
            case 2: return [Self.request("pay-3", "fourth")]
            default: return []
            }
        }

        // Asked after the first append, after the two it returned, after the fourth; the empty answer ends it.
        #expect(calls == [1, 3, 4])
        #expect(outcome.groupSize == 4)
        #expect(try outcome.results.map { try $0.get().positions } == [1...1, 2...2, 3...3, 4...4])
        #expect(try outcome.results[2].get().versions == 2...2)
        #expect(try Self.texts(outcome.stored) == ["first", "second", "third", "fourth"])
        #expect(outcome.stored.map(\.streamID) == ["pay-1", "pay-2", "pay-1", "pay-3"])
        #expect(outcome.chainIntact)
    }

    @Test("a gathered append refused by its checks fails alone; the group's others commit")
    func gatheredRefusalFailsAlone() throws {
        var asked = 0
        let outcome = try Self.runGroup { _ in
            asked += 1
            // pay-1 is at version 1 inside this transaction: expecting no stream is a conflict.
            return asked == 1 ? [Self.request("pay-1", "conflict", expected: .noStream), Self.request("pay-2", "next")] : []
        }

        #expect(outcome.results.count == 3)
        #expect(try outcome.results[0].get().positions == 1...1)
        guard case .failure(.wrongExpectedVersion(let stream, _, let actual)) = outcome.results[1] else {
            Issue.record("expected a version conflict, got \(outcome.results[1])")
            return
        }
        #expect(stream == "pay-1" && actual == 1)
        #expect(try outcome.results[2].get().positions == 2...2)
        #expect(try Self.texts(outcome.stored) == ["first", "next"])
        #expect(outcome.chainIntact)
    }
}
