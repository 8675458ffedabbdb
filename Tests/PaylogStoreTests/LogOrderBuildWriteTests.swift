import LMDBKit
import TestSupport
import Testing

@testable import PaylogStore

@Suite("Writing a rebuild's merged rows")
struct LogOrderBuildWriteTests {
    /// A batch of rows: (database index, key, value), in the order given.
    private static func batch(_ rows: [(UInt16, String, String)]) -> MergedRows {
        var merged = MergedRows(names: ["payments", "routes"], capacity: rows.count)
        for (position, (database, key, value)) in rows.enumerated() {
            Array(key.utf8).withUnsafeBytes { key in
                Array(value.utf8).withUnsafeBytes { value in
                    merged.append(database: database, position: UInt64(position + 1), key: key, value: value)
                }
            }
        }
        return merged
    }

    /// An environment holding an empty `payments` and `routes`, and the view over them.
    private static func view() throws -> (TemporaryDirectory, Environment, Database, Database, ProjectionDatabases) {
        let dir = TemporaryDirectory()
        let env = try Environment(path: dir.path)
        let payments = try env.openDatabase("payments")
        let routes = try env.openDatabase("routes")
        return (dir, env, payments, routes, ProjectionDatabases(byName: ["payments": payments, "routes": routes]))
    }

    /// Every entry of `db` as key and value strings, in key order.
    private static func entries(_ env: Environment, _ db: Database) throws -> [String] {
        try env.read { txn in
            try txn.withCursor(db) { cursor in
                var all: [String] = []
                var found = try cursor.move(.first)
                while found {
                    let (key, value) = cursor.current()
                    all.append(String(decoding: key, as: UTF8.self) + "=" + String(decoding: value, as: UTF8.self))
                    found = try cursor.move(.next)
                }
                return all
            }
        }
    }

    @Test("runs of rows for two databases land in each in key order, over several batches")
    func writesRunsInOrder() throws {
        let (dir, env, payments, routes, view) = try Self.view()
        defer { dir.remove() }
        // Enough rows per database to split pages. The first batch alternates between the databases in runs of 200
        // and 100 rows (each database's rows still in key order), so each run opens a cursor where the last one ended.
        let ids = (0..<3_000).map { String(format: "pay-%05d", $0) }
        var interleaved: [(UInt16, String, String)] = []
        for run in 0..<5 {
            for id in ids[(run * 200)..<((run + 1) * 200)] { interleaved.append((0, id, "status:\(id)")) }
            for id in ids[(run * 100)..<((run + 1) * 100)] { interleaved.append((1, "ref:\(id)", id)) }
        }
        let first = Self.batch(interleaved)
        let second = Self.batch(
            ids[1_000...].map { (0, $0, "status:\($0)") } + ids[500...].map { (1, "ref:\($0)", $0) })
        try env.write { txn in try LogOrderBuild<TaggingProjection>.write(first, projection: "payments", txn, view) }
        try env.write { txn in try LogOrderBuild<TaggingProjection>.write(second, projection: "payments", txn, view) }
        #expect(try Self.entries(env, payments) == ids.map { "\($0)=status:\($0)" })
        #expect(try Self.entries(env, routes) == ids.map { "ref:\($0)=\($0)" })
    }

    @Test("a key out of order fails the rebuild, naming the key and its database")
    func refusesOutOfOrder() throws {
        let (dir, env, payments, routes, view) = try Self.view()
        defer { dir.remove() }
        let rows = Self.batch([(0, "pay-1", "a"), (1, "ref:b", "pay-1"), (1, "ref:a", "pay-2")])
        #expect {
            try env.write { txn in try LogOrderBuild<TaggingProjection>.write(rows, projection: "payments", txn, view) }
        } throws: { error in
            guard case .rebuildFailed(let projection, let reason)? = error as? EventStoreError else { return false }
            return projection == "payments" && reason == "key ref:a of routes came out of key order"
        }
        #expect(try Self.entries(env, payments).isEmpty, "the failed transaction left nothing")
        #expect(try Self.entries(env, routes).isEmpty, "the failed transaction left nothing")
    }
}
