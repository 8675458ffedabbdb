import TestSupport
import Foundation
import Synchronization
import LMDBKit
import PaylogStore
import Testing

@Suite("Hash chain")
struct HashChainTests {
    /// Writes `count` events to a fresh store at `path` and closes it.
    func populate(_ path: String, count: Int = 10) async throws {
        let store = try EventStore(path: path)
        for index in 0..<count {
            _ = try await store.append([StoreFixtures.event("T", "event number \(index)")], to: "pay-\(index % 3)")
        }
        #expect(try store.verifyChain().isIntact)
        store.close()
    }

    /// Edits the raw `events` database behind the store's back.
    func tamper(_ path: String, _ edit: (borrowing Transaction, Database) throws -> Void) throws {
        let env = try Environment(path: path)
        let events = try env.openDatabase("events", create: false)
        try env.write { txn in try edit(txn, events) }
        env.close()
    }

    func key(_ position: UInt64) -> [UInt8] { withUnsafeBytes(of: position.bigEndian) { Array($0) } }

    @Test("a single flipped byte in a stored payload is found at its position", arguments: [1, 5, 10])
    func flippedByte(position: UInt64) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await populate(dir.path)
        try tamper(dir.path) { txn, events in
            var value = try #require(try txn.value(for: key(position), in: events))
            value[value.count - 2] ^= 0x01  // inside the payload bytes
            try txn.put(value, for: key(position), in: events)
        }
        let store = try EventStore(path: dir.path)
        let report = try store.verifyChain()
        #expect(!report.isIntact)
        #expect(report.firstBrokenPosition == position)
        #expect(report.eventsChecked == position - 1)
        #expect(report.problem?.contains("SHA-256") == true)
        store.close()
    }

    @Test("a stored hash rewritten to match an edited record still breaks the chain at the next event")
    func recomputedHash() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await populate(dir.path)
        try tamper(dir.path) { txn, events in
            var value = try #require(try txn.value(for: key(4), in: events))
            value[1] ^= 0xFF  // the hash itself
            try txn.put(value, for: key(4), in: events)
        }
        let store = try EventStore(path: dir.path)
        #expect(try store.verifyChain().firstBrokenPosition == 4)
        store.close()
    }

    @Test("a deleted event in the middle and a deleted last event are both detected")
    func deletions() async throws {
        let middle = TemporaryDirectory()
        let tail = TemporaryDirectory()
        defer { middle.remove(); tail.remove() }
        try await populate(middle.path)
        try await populate(tail.path)
        try tamper(middle.path) { txn, events in _ = try txn.delete(key(6), in: events) }
        try tamper(tail.path) { txn, events in _ = try txn.delete(key(10), in: events) }
        let a = try EventStore(path: middle.path)
        let aReport = try a.verifyChain()
        #expect(aReport.firstBrokenPosition == 7)
        #expect(aReport.problem?.contains("missing") == true)
        a.close()
        let b = try EventStore(path: tail.path)
        let bReport = try b.verifyChain()
        #expect(bReport.firstBrokenPosition == 10)
        #expect(bReport.problem?.contains("head") == true)
        b.close()
    }

    @Test("a verification while another writer appends across its pages never reads the appends as a broken chain")
    func verifyBesideAppends() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        defer { store.close() }
        // Over one page of the verification (50,000 events), so that its pages are read in several transactions.
        for batch in 0..<60 {
            let events = (0..<1_000).map { StoreFixtures.event("T", "event \(batch).\($0)") }
            _ = try await store.append(events, to: "stream-\(batch)")
        }
        // The verifications on a thread of their own, the appends here: neither waits for the other's turn on the pool.
        let finished = Mutex<Result<[ChainReport], any Error>?>(nil)
        Thread {
            let result = Result { try (0..<8).map { _ in try store.verifyChain() } }
            finished.withLock { $0 = result }
        }.start()
        var appended = 0
        while finished.withLock({ $0 == nil }) {
            _ = try await store.append((0..<50).map { StoreFixtures.event("T", "late \(appended).\($0)") }, to: "late-\(appended)")
            appended += 1
        }
        let reports = try #require(finished.withLock { $0 }).get()
        #expect(appended > 0)
        #expect(reports.allSatisfy { $0.isIntact }, "\(reports.compactMap(\.problem))")
        // And the verification after the appends, alone, sees every one of them.
        let last = try store.verifyChain()
        #expect(last.isIntact && last.eventsChecked == 60_000 + UInt64(appended) * 50)
    }

    @Test("a head rolled back behind the last events is detected")
    func headRolledBack() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await populate(dir.path)
        // 10 → 7, the hash left as it was.
        try StoreTampering.setHeadPosition(of: dir.path, to: 7)
        let store = try EventStore(path: dir.path)
        defer { store.close() }
        let report = try store.verifyChain()
        #expect(!report.isIntact)
        #expect(report.problem?.contains("head says 7") == true, "\(report.problem ?? "")")
    }

    @Test("two swapped events are detected")
    func reordering() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await populate(dir.path)
        try tamper(dir.path) { txn, events in
            let three = try #require(try txn.value(for: key(3), in: events))
            let four = try #require(try txn.value(for: key(4), in: events))
            try txn.put(four, for: key(3), in: events)
            try txn.put(three, for: key(4), in: events)
        }
        let store = try EventStore(path: dir.path)
        #expect(try store.verifyChain().firstBrokenPosition == 3)
        store.close()
    }

    @Test("an undecodable record reads as a clear corruption error naming its position")
    func corruptRecordError() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await populate(dir.path, count: 3)
        try tamper(dir.path) { txn, events in try txn.put([9, 9, 9], for: key(2), in: events) }
        let store = try EventStore(path: dir.path)
        #expect(throws: EventStoreError.corruptRecord(position: 2, reason: "the value is 3 bytes, shorter than its header")) {
            _ = try store.event(at: 2)
        }
        #expect(try store.event(at: 1) != nil)
        store.close()
    }

    @Test("storedRecords reads past an undecodable record, naming it in its place; storedBytes gives its bytes")
    func storedRecordsPastDamage() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await populate(dir.path, count: 5)
        try tamper(dir.path) { txn, events in try txn.put([9, 9, 9], for: key(3), in: events) }
        let store = try EventStore(path: dir.path)
        defer { store.close() }
        let records = try store.storedRecords(from: 2, limit: 10)
        #expect(records.map(\.position) == [2, 3, 4, 5])
        guard case .damaged(3, .corruptRecord(3, let reason)) = records[1] else {
            Issue.record("position 3 is not reported damaged: \(records[1])")
            return
        }
        #expect(reason == "the value is 3 bytes, shorter than its header")
        if case .event(let event) = records[2] { #expect(event.position == 4 && event.streamID == "pay-0") } else {
            Issue.record("position 4 does not decode: \(records[2])")
        }
        #expect(try store.storedBytes(at: 3) == [9, 9, 9])
        #expect(try store.storedBytes(at: 6) == nil)
        #expect(try store.storedRecords(from: 5, limit: 1).map(\.position) == [5])
    }
}
