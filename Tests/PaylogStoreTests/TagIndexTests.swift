import Foundation
import LMDBKit
import TestSupport
import Testing

@testable import PaylogStore

/// Tags an appender declares (log format 5): kept in the record, under the hash chain, and indexed by the store in
/// `tag-index` as the events commit, so that no view rebuild has to derive them again.
@Suite("Declared tags and their index")
struct TagIndexTests {
    /// A projection that only names its databases (for the store's check of reserved names); it writes nothing.
    struct NamedProjection: InlineProjection {
        let name = "named"
        let version: UInt64 = 1
        let databaseNames: [String]

        func apply(_ event: RecordedEvent, in txn: borrowing Transaction, databases: ProjectionDatabases) throws {}
    }

    static func event(_ tags: [String]?, id: UUID = UUID(), payload: String = "payload") -> NewEvent {
        NewEvent(id: id, type: "Tick", payload: Data(payload.utf8), actor: "test", tags: tags)
    }

    @Test("a tag names the last event that declared it, as soon as it commits, and inside a write session before")
    func lastDeclarationWins() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        defer { store.close() }
        let first = try await store.append([Self.event(["ref:1", "tx:9"])], to: "pay-1")
        #expect(try store.taggedEvent("ref:1") == TaggedEvent(streamID: "pay-1", position: first.positions.lowerBound))
        let second = try await store.append([Self.event(nil), Self.event(["ref:1"])], to: "pay-2")
        #expect(try store.taggedEvent("ref:1") == TaggedEvent(streamID: "pay-2", position: second.positions.upperBound))
        #expect(try store.taggedEvent("tx:9") == TaggedEvent(streamID: "pay-1", position: first.positions.lowerBound))
        #expect(try store.taggedEvent("ref:2") == nil)
        #expect(try store.taggedEvent("") == nil)

        let seen = try await store.withWriteSession { session in
            let appended = try session.append([Self.event(["ref:2", "ref:1"])], to: "pay-3")
            return (try session.taggedEvent("ref:2"), try session.taggedEvent("ref:1"), appended.positions.lowerBound)
        }
        #expect(seen.0 == TaggedEvent(streamID: "pay-3", position: seen.2))
        #expect(seen.1 == TaggedEvent(streamID: "pay-3", position: seen.2))
        #expect(try store.taggedEvent("ref:1") == TaggedEvent(streamID: "pay-3", position: seen.2))
        let read = try store.read(from: 1, limit: 10).map(\.tags)
        #expect(read == [["ref:1", "tx:9"], nil, ["ref:1"], ["ref:2", "ref:1"]])
    }

    @Test("a tag that cannot be indexed is refused with the event named, and nothing of the append is written",
          arguments: ["", String(repeating: "t", count: StoreKeys.maximumTagBytes + 1)])
    func unusableTagRefused(tag: String) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        defer { store.close() }
        let bad = Self.event(["ok", tag])
        await #expect {
            _ = try await store.append([Self.event(["fine"]), bad], to: "pay-1")
        } throws: { error in
            guard case .invalidTag(let refused, let id, _) = error as? EventStoreError else { return false }
            return refused == tag && id == bad.id && "\(error)".contains("1–480 bytes")
        }
        #expect(try store.lastPosition() == 0)
        #expect(try store.taggedEvent("fine") == nil)
        let longest = String(repeating: "t", count: StoreKeys.maximumTagBytes)
        _ = try await store.append([Self.event([longest])], to: "pay-1")
        #expect(try store.taggedEvent(longest)?.position == 1)
    }

    @Test("declaring no tags and declaring none read back apart; a retry is the same event whichever declared, unless both did, differently")
    func declaredOrNot() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        defer { store.close() }
        let undeclared = Self.event(nil)
        let none = Self.event([])
        _ = try await store.append([undeclared], to: "pay-1")
        _ = try await store.append([none], to: "pay-1")
        #expect(try store.event(id: undeclared.id)?.tags == nil)
        #expect(try store.event(id: none.id)?.tags == [])

        // The same event appended again by an appender that declares its tags (a retry across an upgrade).
        var retried = undeclared
        retried.tags = ["ref:1"]
        #expect(try await store.append([retried], to: "pay-1").wasAlreadyRecorded)
        #expect(try store.taggedEvent("ref:1") == nil, "a retry writes nothing, the index included")
        var changed = none
        changed.tags = ["ref:1"]
        await #expect(throws: EventStoreError.self) { _ = try await store.append([changed], to: "pay-1") }
    }

    @Test("the chain covers the tags: one edited byte of a tag breaks it there, with the payload stored as given or compressed",
          arguments: [false, true])
    func chainCoversTags(compressed: Bool) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let dictionary = compressed ? Array(String(repeating: "square-commerce-v1://payment/create?data=", count: 4).utf8) : nil
        let store = try EventStore(path: dir.path, payloadDictionary: dictionary)
        let payload = "square-commerce-v1://payment/create?data=%7B%22amount%22%3A100%7D"
        for index in 0..<4 {
            _ = try await store.append([Self.event(["ref:order-\(index)"], payload: payload)], to: "pay-\(index)")
        }
        #expect(try store.verifyChain().isIntact)
        store.close()

        let environment = try Environment(path: dir.path)
        try environment.write { txn in
            let events = try txn.openDatabase("events", create: false)!
            var value = try #require(try txn.value(for: StoreKeys.event(3), in: events))
            #expect(value[0] == (compressed ? 2 : 1))
            let tag = Array("ref:order-2".utf8)
            let at = try #require((0...(value.count - tag.count)).first { Array(value[$0..<($0 + tag.count)]) == tag })
            value[at + tag.count - 1] = UInt8(ascii: "9")
            try txn.put(value, for: StoreKeys.event(3), in: events)
        }
        environment.close()
        let reopened = try EventStore(path: dir.path)
        defer { reopened.close() }
        #expect(try reopened.event(at: 3)?.tags == ["ref:order-9"])
        #expect(try reopened.verifyChain().firstBrokenPosition == 3)
    }

    @Test("an export keeps the tags as declared and imports with the same hashes and the same index")
    func exportImport() async throws {
        let source = TemporaryDirectory()
        let target = TemporaryDirectory()
        defer { source.remove(); target.remove() }
        let store = try EventStore(path: source.path)
        _ = try await store.append([Self.event(nil), Self.event([]), Self.event(["ref:1", "ctx:2"])], to: "pay-1")
        _ = try await store.append([Self.event(["ref:1"])], to: "pay-2")
        let lines = try store.read(from: 1, limit: 10).map { try ExportLine($0) }
        store.close()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try lines.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        #expect(!json[0].contains("\"tags\""), "an event that declared nothing has no tags key")
        #expect(json[1].contains("\"tags\":[]") && json[2].contains("\"tags\":[\"ref:1\",\"ctx:2\"]"))

        let decoded = try json.map { try JSONDecoder().decode(ExportLine.self, from: Data($0.utf8)) }
        #expect(decoded == lines)
        let imported = try EventStore(path: target.path)
        defer { imported.close() }
        try await imported.importEvents(try decoded.map { try $0.recordedEvent() })
        #expect(try imported.verifyChain().isIntact)
        #expect(try imported.read(from: 1, limit: 10).map(\.hash) == lines.map { try $0.recordedEvent().hash })
        #expect(try imported.taggedEvent("ref:1") == TaggedEvent(streamID: "pay-2", position: 4))
        #expect(try imported.taggedEvent("ctx:2") == TaggedEvent(streamID: "pay-1", position: 3))

        // A line whose tags were edited no longer matches its hash.
        var edited = decoded
        edited[2].tags = ["ref:1"]
        let again = TemporaryDirectory()
        defer { again.remove() }
        let refusing = try EventStore(path: again.path)
        defer { refusing.close() }
        await #expect {
            try await refusing.importEvents(try edited.map { try $0.recordedEvent() })
        } throws: { error in
            guard case .importMismatch(let position, let reason) = error as? EventStoreError else { return false }
            return position == 3 && reason.contains("altered")
        }
        #expect(try refusing.lastPosition() == 0)
    }

    @Test("the replay's check rebuilds the index from the records: a wrong or lost entry is a difference")
    func replayCheck() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        defer { store.close() }
        for index in 0..<20 {
            _ = try await store.append([Self.event(["ref:\(index % 7)", "tx:\(index)"])], to: "pay-\(index % 5)")
        }
        #expect(try ProjectionRebuild.run(store).differenceCount == 0)
        try store.environment.write { txn in
            try txn.put(StoreKeys.bigEndian(3) + Array("pay-4".utf8), for: Array("ref:0".utf8), in: store.databases.tags)
            #expect(try txn.delete(Array("tx:5".utf8), in: store.databases.tags))
            try txn.put(StoreKeys.bigEndian(1) + Array("pay-0".utf8), for: Array("tx:99".utf8), in: store.databases.tags)
        }
        let check = try ProjectionRebuild.run(store)
        #expect(check.differenceCount == 3)
        #expect(Set(check.differences.map { "\($0.database) \($0.key) \($0.kind)" }) == [
            "tag-index ref:0 different value", "tag-index tx:5 missing in live", "tag-index tx:99 missing in rebuild",
        ])
    }

    @Test("a projection may not name a database as the store names its own", arguments: ["events", "tag-index", "ids", "v#1"])
    func reservedNames(name: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(throws: EventStoreError.reservedDatabaseName(projection: "named", database: name)) {
            _ = try EventStore(path: dir.path, projections: [NamedProjection(databaseNames: ["fine", name])])
        }
    }
}
