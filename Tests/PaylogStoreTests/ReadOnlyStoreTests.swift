import Foundation
import LMDBKit
import PaylogStore
import TestSupport
import Testing

/// A store opened read-only (a backup on read-only or immutable storage, or an auditor who must not change a byte):
/// the log reads as usual, current views read as they stand, views that would need writing are refused with the
/// reason, every write fails, and `data.mdb` stays byte for byte as it was.
@Suite("Read-only stores")
struct ReadOnlyStoreTests {
    static let readOnly = EnvironmentOptions(readOnly: true)

    /// A store in `dir` with `events` events on streams s0…s2, kept by `projections`.
    static func record(_ events: Int, in dir: TemporaryDirectory, projections: [any InlineProjection]) async throws {
        let store = try EventStore(path: dir.path, projections: projections)
        defer { store.close() }
        for index in 0..<events {
            _ = try await store.append([StoreFixtures.event("Tick", "event \(index)")], to: "s\(index % 3)")
        }
    }

    static func dataFile(_ dir: TemporaryDirectory) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: dir.path + "/data.mdb"))
    }

    @Test("reads the log and its current views, refuses every write, and leaves data.mdb byte for byte as it was")
    func readsWithoutWriting() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await Self.record(7, in: dir, projections: [CountingProjection()])
        let before = try Self.dataFile(dir)

        let store = try EventStore(path: dir.path, options: Self.readOnly, projections: [CountingProjection()])
        let report = try store.verifyChain()
        #expect(report.isIntact && report.eventsChecked == 7)
        #expect(try store.readStream("s1").map { String(decoding: try $0.payload, as: UTF8.self) } == ["event 1", "event 4"])
        #expect(try CountingProjection.totals(store) == (applied: 7, last: 7))
        let refused = await #expect(throws: EventStoreError.self) {
            _ = try await store.append([StoreFixtures.event()], to: "s0")
        }
        #expect(refused == .storage(.readOnly(path: dir.path)), "\(String(describing: refused))")
        #expect(refused?.description.contains("opened read-only") == true, "\(String(describing: refused))")
        store.close()

        #expect(try Self.dataFile(dir) == before, "a read-only open changed data.mdb")
        // Read-write again, the store is as it was.
        let reopened = try EventStore(path: dir.path, projections: [CountingProjection()])
        defer { reopened.close() }
        #expect(try reopened.lastPosition() == 7)
    }

    @Test("views of another version, or behind the log, are refused with the reason; the log still reads; nothing written")
    func staleViews() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await Self.record(4, in: dir, projections: [CountingProjection()])
        // Two more events recorded by a process that does not keep the view: it is now behind.
        try await Self.record(2, in: dir, projections: [])
        let before = try Self.dataFile(dir)

        for (projection, words) in [(CountingProjection(), "2 event(s) behind the log"), (CountingProjection(version: 2), "version 1")] {
            let store = try EventStore(path: dir.path, options: Self.readOnly, projections: [projection])
            defer { store.close() }
            #expect(try store.verifyChain().eventsChecked == 6)
            let error = #expect(throws: EventStoreError.self) { _ = try CountingProjection.totals(store) }
            guard case .readOnlyStore(let reason)? = error else {
                Issue.record("expected readOnlyStore, got \(String(describing: error))")
                continue
            }
            #expect(reason.contains(words), "\(reason)")
        }
        #expect(try Self.dataFile(dir) == before)
    }

    @Test("a store in an older log format is refused read-only (it would need migrating), and is left as it was")
    func olderFormat() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try MDBDump(String(contentsOf: FormatMigrationTests.formatThreeFixture, encoding: .utf8)).load(into: dir.path)
        let before = try Self.dataFile(dir)
        let error = #expect(throws: EventStoreError.self) {
            _ = try EventStore(path: dir.path, options: Self.readOnly, projections: [])
        }
        #expect(error == .readOnlyNeedsMigration(format: 3), "\(String(describing: error))")
        #expect(error?.description.contains("not even the log") == true, "\(String(describing: error))")
        #expect(error?.description.contains("can still be read") == false, "\(String(describing: error))")
        #expect(try Self.dataFile(dir) == before)
    }

    @Test("a directory that holds no store is not created or filled when opened read-only")
    func noStore() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let missing = dir.path + "/absent"
        #expect(throws: EventStoreError.self) { _ = try EventStore(path: missing, options: Self.readOnly) }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test("an LMDB environment that is no paylog store is refused read-only as holding no log, not as readable")
    func notAPaylogStore() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        do {
            let environment = try Environment(path: dir.path)
            environment.close()
        }
        let error = #expect(throws: EventStoreError.self) {
            _ = try EventStore(path: dir.path, options: Self.readOnly, projections: [])
        }
        guard case .readOnlyNoLog(let reason)? = error else {
            Issue.record("expected readOnlyNoLog, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("no `meta` database"))
        #expect(error?.description.contains("can still be read") == false, "\(String(describing: error))")
    }
}
