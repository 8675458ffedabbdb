import Foundation
import LMDBKit
import PaylogStore
import TestSupport
import Testing

/// Damage to `meta` (the log format, the chain head, the views' checkpoints) is reported, never repaired behind the
/// auditor's back: a store whose format went missing was given the current one, and a log cut short with its head
/// rewritten verified as a shorter, intact log.
@Suite("damaged meta: the format, the head, a log cut short")
struct DamagedMetaTests {
    static let readOnly = EnvironmentOptions(readOnly: true)

    /// Ten events in three streams, with the counting view brought up to position 10.
    func populate(_ path: String) async throws {
        let store = try EventStore(path: path, projections: [CountingProjection()])
        for index in 0..<10 {
            _ = try await store.append([StoreFixtures.event("T", "event number \(index)")], to: "pay-\(index % 3)")
        }
        #expect(try store.verifyChain().isIntact)
        store.close()
    }

    /// Runs `edit` on the raw `meta` and `events` databases of the closed store at `path`.
    func tamper(_ path: String, _ edit: (borrowing Transaction, _ meta: Database, _ events: Database) throws -> Void) throws {
        let env = try Environment(path: path)
        defer { env.close() }
        let meta = try env.openDatabase("meta", create: false)
        let events = try env.openDatabase("events", create: false)
        try env.write { txn in try edit(txn, meta, events) }
    }

    /// The raw `meta` value under `key`, read behind the store's back.
    func metaValue(_ path: String, _ key: String) throws -> [UInt8]? {
        let env = try Environment(path: path)
        defer { env.close() }
        let meta = try env.openDatabase("meta", create: false)
        return try env.read { txn in try txn.value(for: Array(key.utf8), in: meta) }
    }

    func eventKey(_ position: UInt64) -> [UInt8] { withUnsafeBytes(of: position.bigEndian) { Array($0) } }


    @Test("a log cut short with its head rewritten to match: verify names the view past its end; appends are refused")
    func logCutShort() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await populate(dir.path)
        try StoreTampering.cutLog(of: dir.path, after: 8)
        let checkpoint = try metaValue(dir.path, "projection:counting")
        let store = try EventStore(path: dir.path, projections: [CountingProjection()])
        let report = try store.verifyChain()
        #expect(report.firstBrokenPosition == 9 && report.eventsChecked == 8 && report.headHash == nil)
        #expect(report.problem?.contains("the counting view was brought up to position 10, but the log and its head "
            + "end at position 8") == true, "\(report.problem ?? "")")
        let cut = EventStoreError.logCutShort(view: "counting", checkpoint: 10, head: 8)
        await #expect(throws: cut) {
            _ = try await store.append([StoreFixtures.event("T", "after the cut")], to: "pay-new")
        }
        #expect(cut.chainDamage?.firstBrokenPosition == 9)
        #expect(cut.description.contains("the counting view was brought up to position 10, but the log and its head end "
            + "at position 8") && cut.description.contains("Nothing was written"), "\(cut)")
        store.close()
        // A release whose view version changed rebuilds that view at open, and the new generation would go live at
        // the head: refused, the checkpoint kept.
        #expect(throws: cut) { try EventStore(path: dir.path, projections: [CountingProjection(version: 2)]).close() }
        // The refused append wrote nothing: the log still ends at 8, and the view's checkpoint, the trace, is kept.
        #expect(try metaValue(dir.path, "projection:counting") == checkpoint)
        let reopened = try EventStore(path: dir.path, options: Self.readOnly, projections: [CountingProjection()])
        defer { reopened.close() }
        let again = try reopened.verifyChain()
        #expect(again.lastPosition == 8 && again.firstBrokenPosition == 9)
    }

    @Test("a process that keeps no view sees the cut and is refused too; a library rebuild of the views is refused")
    func cutSeenWithoutViews() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await populate(dir.path)
        try StoreTampering.cutLog(of: dir.path, after: 9)
        let cut = EventStoreError.logCutShort(view: "counting", checkpoint: 10, head: 9)
        let bare = try EventStore(path: dir.path, projections: [])
        let report = try bare.verifyChain()
        #expect(report.firstBrokenPosition == 10 && report.isCutShort && report.eventsChecked == 9)
        await #expect(throws: cut) { _ = try await bare.append([StoreFixtures.event("T", "no views")], to: "pay-new") }
        bare.close()
        let store = try EventStore(path: dir.path, projections: [CountingProjection()])
        await #expect(throws: cut) { try await store.rebuildProjections() }
        store.close()
        #expect(try metaValue(dir.path, "projection:counting").map { Array($0[8..<16]) } == eventKey(10))
    }

    @Test("a view's catch-up at open stops at the head, even where events lie past it")
    func catchUpStopsAtHead() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await populate(dir.path)
        // The view moved back to 5 and the head to 7: events 8–10 lie past the head.
        try tamper(dir.path) { txn, meta, _ in
            var checkpoint = try #require(try txn.value(for: Array("projection:counting".utf8), in: meta))
            checkpoint.replaceSubrange(8..<16, with: eventKey(5))
            try txn.put(checkpoint, for: Array("projection:counting".utf8), in: meta)
        }
        try StoreTampering.setHeadPosition(of: dir.path, to: 7)
        let store = try EventStore(path: dir.path, projections: [CountingProjection()])
        let report = try store.verifyChain()
        store.close()
        #expect(try metaValue(dir.path, "projection:counting").map { Array($0[8..<16]) } == eventKey(7))
        #expect(!report.isCutShort && report.problem?.contains("head says 7") == true, "\(report.problem ?? "")")
    }

    @Test("a store emptied behind paylog's back (events and head deleted, views kept) refuses an import")
    func emptiedStoreImport() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await populate(dir.path)
        let source = try EventStore(path: dir.path, projections: [CountingProjection()])
        let events = try (1...10).map { try #require(try source.event(at: $0)) }
        source.close()
        try tamper(dir.path) { txn, meta, events in
            try txn.clear(events)
            _ = try txn.delete(Array("head".utf8), in: meta)
        }
        let store = try EventStore(path: dir.path, projections: [CountingProjection()])
        defer { store.close() }
        #expect(try store.lastPosition() == 0)
        await #expect(throws: EventStoreError.logCutShort(view: "counting", checkpoint: 10, head: 0)) {
            try await store.importEvents(events)
        }
        #expect(try store.lastPosition() == 0)
    }

    @Test("a missing log format beside events refuses the open, read-write or read-only, and is left missing")
    func missingFormat() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await populate(dir.path)
        try tamper(dir.path) { txn, meta, _ in _ = try txn.delete(Array("format".utf8), in: meta) }
        let damage = EventStoreError.metaDamaged(entry: "format", reason: "is missing, but the log holds 10 event(s)")
        #expect(throws: damage) { try EventStore(path: dir.path, projections: [CountingProjection()]).close() }
        #expect(throws: damage) { try EventStore(path: dir.path, options: Self.readOnly, projections: []).close() }
        #expect(try metaValue(dir.path, "format") == nil, "not rewritten as the current format")
        #expect(damage.chainDamage == nil)
        #expect(damage.description.contains("`format` entry is missing") && damage.description.contains("backup"))
    }

    @Test("a log format of the wrong length refuses the open, naming its length, and is left as it was")
    func shortFormat() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await populate(dir.path)
        try tamper(dir.path) { txn, meta, _ in try txn.put([0, 0, 5], for: Array("format".utf8), in: meta) }
        let damage = EventStoreError.metaDamaged(entry: "format", reason: "is 3 bytes, not 4")
        #expect(throws: damage) { try EventStore(path: dir.path, projections: [CountingProjection()]).close() }
        #expect(throws: damage) { try EventStore(path: dir.path, options: Self.readOnly, projections: []).close() }
        #expect(try metaValue(dir.path, "format") == [0, 0, 5])
    }

    @Test("a chain head of the wrong length refuses the open as the chain's damage, and is left as it was")
    func shortHead() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await populate(dir.path)
        let head = try #require(try metaValue(dir.path, "head"))
        try tamper(dir.path) { txn, meta, _ in try txn.put(Array(head.dropLast()), for: Array("head".utf8), in: meta) }
        let damage = EventStoreError.metaDamaged(entry: "head", reason: "is 39 bytes, not 40")
        let file = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/data.mdb"))
        #expect(throws: damage) { try EventStore(path: dir.path, projections: [CountingProjection()]).close() }
        #expect(throws: damage) { try EventStore(path: dir.path, projections: [CountingProjection(version: 2)]).close() }
        #expect(throws: damage) { try EventStore(path: dir.path, projections: []).close() }
        // Refused before any transaction of the open wrote (a view rebuilt, older generations deleted).
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path + "/data.mdb")) == file)
        #expect(throws: damage) { try EventStore(path: dir.path, options: Self.readOnly, projections: [CountingProjection()]).close() }
        #expect(damage.chainDamage?.problem.contains("is 39 bytes, not 40: where the log ends cannot be checked") == true)
        #expect(damage.chainDamage?.firstBrokenPosition == nil)
        #expect(try metaValue(dir.path, "head") == Array(head.dropLast()))
    }

    @Test("a new store, with no format and no event, still opens and records the current format")
    func newStore() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, projections: [CountingProjection()])
        store.close()
        #expect(try metaValue(dir.path, "format")?.count == 4)
    }
}
