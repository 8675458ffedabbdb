import Foundation
import LMDBKit
import PaylogStore
import TestSupport
import Testing

/// Stores written in older log formats opened by today's build: format 1 (the stream index as one `streams` entry
/// per event), format 3 (with a `heads` database, which format 4 folded into `versions`) and format 4 (records that
/// declare no tags, and no `tag-index`). The fixtures are `mdb_dump -a` of the golden demo log imported by the
/// format-1 build (commit 0be10bf) and by the format-3 build (commit 6602e51); a format-4 store is made from the
/// format-3 one.
@Suite("Log format migration")
struct FormatMigrationTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden/demo-40.format-1.mdb-dump")

    static let formatThreeFixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden/demo-40.format-3.mdb-dump")

    static func dump() throws -> MDBDump {
        try MDBDump(String(contentsOf: fixture, encoding: .utf8))
    }

    /// Format 1's index as (stream, version, position), read from the dump's `streams` section.
    static func formatOneIndex(_ dump: MDBDump) throws -> [(stream: String, version: UInt64, position: UInt64)] {
        let section = try #require(dump.sections.first { $0.name == "streams" })
        return section.entries.map { key, value in
            let id = String(decoding: key[..<(key.count - 9)], as: UTF8.self)
            let version = key[(key.count - 8)...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let position = value.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return (id, version, position)
        }
    }

    static func format(at path: String) throws -> [UInt8]? {
        let environment = try Environment(path: path)
        defer { environment.close() }
        return try environment.write { txn in
            guard let meta = try txn.openDatabase("meta", create: false) else { return nil }
            return try txn.value(for: Array("format".utf8), in: meta)
        }
    }

    static func databaseExists(_ name: String, at path: String) throws -> Bool {
        try entryCount(name, at: path) != nil
    }

    static func entryCount(_ name: String, at path: String) throws -> Int? {
        let environment = try Environment(path: path)
        defer { environment.close() }
        return try environment.write { txn in try txn.openDatabase(name, create: false).map { try txn.count($0) } }
    }

    @Test("a format-1 store opens migrated: every stream reads as format 1 indexed it, forward and backward, and the chain holds")
    func migratesTheStreamIndex() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let dump = try Self.dump()
        try dump.load(into: dir.path)
        #expect(try Self.format(at: dir.path) == [0, 0, 0, 1])
        let index = try Self.formatOneIndex(dump)
        #expect(index.count == 161)

        let store = try EventStore(path: dir.path)
        for (stream, entries) in Dictionary(grouping: index, by: \.stream) {
            let expected = entries.sorted { $0.version < $1.version }
            let forward = try store.readStream(stream)
            #expect(forward.map(\.version) == expected.map(\.version))
            #expect(forward.map(\.position) == expected.map(\.position))
            #expect(forward.allSatisfy { $0.streamID == stream })
            #expect(try store.readStream(stream, direction: .backward).map(\.position) == expected.reversed().map(\.position))
        }
        let chain = try store.verifyChain()
        #expect(chain.isIntact && chain.eventsChecked == 161)
        // Appends after the migration go on where format 1 left off.
        let stream = try #require(index.first?.stream)
        let last = try #require(index.filter { $0.stream == stream }.map(\.version).max())
        let appended = try await store.append([StoreFixtures.event()], to: stream, expecting: .exact(last))
        #expect(appended.positions == 162...162)
        #expect(try store.readStream(stream, from: last + 1).map(\.version) == [last + 1])
        store.close()

        #expect(try Self.format(at: dir.path) == [0, 0, 0, 5])
        #expect(try !Self.databaseExists("streams", at: dir.path))
        #expect(try !Self.databaseExists("heads", at: dir.path))
        #expect(try Self.databaseExists("versions", at: dir.path))
    }

    @Test("a format-3 store opens as format 5: `heads` is deleted, every stream ends where it said, `events` is untouched")
    func dropsHeads() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let dump = try MDBDump(String(contentsOf: Self.formatThreeFixture, encoding: .utf8))
        try dump.load(into: dir.path)
        #expect(try Self.format(at: dir.path) == [0, 0, 0, 3])
        // `heads` values: last version · last position, 8 bytes each.
        let heads = try #require(dump.sections.first { $0.name == "heads" }).entries.map { key, value in
            (stream: String(decoding: key, as: UTF8.self), version: value[..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) },
             position: value[8...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
        #expect(heads.count == 40)
        let events = try #require(dump.sections.first { $0.name == "events" }).entries
        #expect(events.count == 161)

        let store = try EventStore(path: dir.path)
        for head in heads {
            #expect(try store.version(of: head.stream) == head.version)
            let stream = try store.readStream(head.stream)
            #expect(stream.map(\.version) == Array(1...head.version))
            #expect(stream.last?.position == head.position)
        }
        let chain = try store.verifyChain()
        #expect(chain.isIntact && chain.eventsChecked == 161)
        // Expected-version checks read the stream's end from `versions` now.
        let first = try #require(heads.first)
        await #expect(throws: EventStoreError.self) {
            _ = try await store.append([StoreFixtures.event()], to: first.stream, expecting: .exact(first.version - 1))
        }
        let appended = try await store.append([StoreFixtures.event()], to: first.stream, expecting: .exact(first.version))
        #expect(appended.positions == 162...162 && appended.versions == (first.version + 1)...(first.version + 1))
        store.close()

        #expect(try Self.format(at: dir.path) == [0, 0, 0, 5])
        #expect(try !Self.databaseExists("heads", at: dir.path))
        // Its records declare no tags; the one appended since declares none either (the fixture's events have nil).
        #expect(try Self.entryCount("tag-index", at: dir.path) == 0)
        let environment = try Environment(path: dir.path)
        defer { environment.close() }
        let stored = try environment.read { txn in
            try txn.entries(of: #require(try txn.openDatabase("events", create: false)))
        }
        #expect(stored.count == 162)
        #expect(stored.prefix(161).map(\.key) == events.map(\.key))
        #expect(stored.prefix(161).map(\.value) == events.map(\.value), "the evidence is byte for byte as format 3 stored it")
    }

    @Test(
        "a damaged format-1 index stops the migration with its reason and leaves the store exactly as it was",
        arguments: ["short key", "version gap"])
    func failedMigrationChangesNothing(damage: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try Self.dump().load(into: dir.path)
        let environment = try Environment(path: dir.path)
        try environment.write { txn in
            let streams = try #require(try txn.openDatabase("streams", create: false))
            if damage == "short key" {
                try txn.put([0, 0, 0, 0, 0, 0, 0, 1], for: Array("short".utf8), in: streams)
            } else {
                // pay-0011's version 2 goes missing: its versions run 1, 3, …
                #expect(try txn.delete(Array("pay-0011".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 2], in: streams))
            }
        }
        let entries = try #require(try environment.write { txn in try txn.openDatabase("streams", create: false).map { try txn.count($0) } })
        environment.close()

        #expect {
            _ = try EventStore(path: dir.path)
        } throws: { error in
            guard case .migrationFailed(let from, let reason) = error as? EventStoreError else { return false }
            return from == 1
                && reason.contains(damage == "short key" ? "5-byte key" : "stream pay-0011 has version 3 after 1")
        }
        #expect(try Self.format(at: dir.path) == [0, 0, 0, 1])
        #expect(try Self.entryCount("streams", at: dir.path) == entries)
        #expect(try !Self.databaseExists("versions", at: dir.path))
    }

    @Test("a store of a format this build does not know is refused before anything is created in it")
    func unknownFormatRefused() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let environment = try Environment(path: dir.path)
        try environment.write { txn in
            let meta = try #require(try txn.openDatabase("meta", create: true))
            try txn.put([0, 0, 0, 9], for: Array("format".utf8), in: meta)
        }
        environment.close()
        #expect(throws: EventStoreError.unsupportedFormat(found: 9, supported: 5)) { _ = try EventStore(path: dir.path) }
        #expect(try !Self.databaseExists("events", at: dir.path))
        #expect(try !Self.databaseExists("versions", at: dir.path))
    }

    @Test("a format-4 store opens as format 5: its records untouched and declaring no tags, an empty `tag-index` that new appends fill")
    func addsTheTagIndex() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try MDBDump(String(contentsOf: Self.formatThreeFixture, encoding: .utf8)).load(into: dir.path)
        // Format 3 → 4 is what a format-4 build did at open: `heads` deleted, format 4 stored.
        do {
            let environment = try Environment(path: dir.path)
            defer { environment.close() }
            try environment.write { txn in
                try txn.deleteDatabase(#require(try txn.openDatabase("heads", create: false)))
                try txn.put([0, 0, 0, 4], for: Array("format".utf8), in: #require(try txn.openDatabase("meta", create: false)))
            }
        }
        #expect(try !Self.databaseExists("tag-index", at: dir.path))
        let before = try Self.events(at: dir.path)

        let store = try EventStore(path: dir.path)
        #expect(try store.read(from: 1, limit: 1_000).allSatisfy { $0.tags == nil })
        #expect(try store.verifyChain().isIntact)
        let tagged = NewEvent(type: "Tagged", payload: Data("x".utf8), tags: ["ref:order-1"])
        let appended = try await store.append([tagged], to: "pay-new")
        #expect(try store.taggedEvent("ref:order-1") == TaggedEvent(streamID: "pay-new", position: appended.positions.lowerBound))
        #expect(try store.verifyChain().isIntact)
        store.close()

        #expect(try Self.format(at: dir.path) == [0, 0, 0, 5])
        #expect(try Self.entryCount("tag-index", at: dir.path) == 1)
        let after = try Self.events(at: dir.path)
        #expect(after.count == before.count + 1)
        #expect(Array(after.prefix(before.count).map(\.value)) == before.map(\.value), "the evidence is byte for byte as format 4 stored it")
    }

    /// Every `events` entry of the store at `path`.
    static func events(at path: String) throws -> [(key: [UInt8], value: [UInt8])] {
        let environment = try Environment(path: path)
        defer { environment.close() }
        return try environment.read { txn in try txn.entries(of: #require(try txn.openDatabase("events", create: false))) }
    }
}
