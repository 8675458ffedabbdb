import Foundation
import PaylogStore
import TestSupport
import Testing

/// ``WriteSession/append(_:to:expecting:decided:)``: what the appender worked out reaches the live views.
@Suite("Appends handing their decided form to the views")
struct DecidedAppendTests {
    /// The notes the projection left, by position.
    private static func notes(_ store: EventStore) throws -> [UInt64: String] {
        try store.readViews { txn, databases in
            try txn.withCursor(databases["notes"]) { cursor in
                var notes: [UInt64: String] = [:]
                var found = try cursor.move(.first)
                while found {
                    let (key, value) = cursor.current()
                    notes[key.reduce(0) { $0 << 8 | UInt64($1) }] = String(decoding: value, as: UTF8.self)
                    found = try cursor.move(.next)
                }
                return notes
            }
        }
    }

    @Test("a session's append hands `decided` to the live view with each of its events; other appends, and projections that do not implement it, get the plain call")
    func reachesTheLiveView() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, projections: [DecidedNotingProjection(), CountingProjection()])
        defer { store.close() }
        _ = try await store.append([StoreFixtures.event()], to: "queued", expecting: .noStream)
        try await store.withWriteSession { session in
            _ = try session.append([StoreFixtures.event(), StoreFixtures.event()], to: "pay-1", expecting: .noStream, decided: "two")
            _ = try session.append([StoreFixtures.event()], to: "pay-2", expecting: .noStream)
            _ = try session.append([StoreFixtures.event()], to: "pay-3", expecting: .noStream, decided: 42)
        }
        #expect(try Self.notes(store) == [1: "plain", 2: "decided two", 3: "decided two", 4: "plain", 5: "plain"])
        // The projection that ignores `decided` counted every event, whichever way it came.
        let counts = try store.readViews { txn, databases in
            try ["queued", "pay-1", "pay-2", "pay-3"].map { stream in
                try txn.value(for: Array(stream.utf8), in: databases["counts"]).map(CountingProjection.decode) ?? 0
            }
        }
        #expect(counts == [1, 2, 1, 1])
    }

    @Test("an append recognised as already recorded applies nothing, decided or not")
    func alreadyRecordedAppliesNothing() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, projections: [DecidedNotingProjection()])
        defer { store.close() }
        let event = StoreFixtures.event()
        _ = try await store.append([event], to: "pay-1", expecting: .noStream)
        let again = try await store.withWriteSession { session in
            try session.append([event], to: "pay-1", expecting: .any, decided: "again").wasAlreadyRecorded
        }
        #expect(again)
        #expect(try Self.notes(store) == [1: "plain"])
    }
}
