import LMDBKit
import PaylogStore

/// A test projection: per stream, how many events it has seen (times `weight`), and in `totals` the number of
/// events applied and the last position applied. A view applied exactly once satisfies applied == last position.
struct CountingProjection: InlineProjection {
    let name = "counting"
    var version: UInt64 = 1
    var weight: UInt64 = 1
    let databaseNames = ["counts", "totals"]

    func apply(_ event: RecordedEvent, in txn: borrowing Transaction, databases: ProjectionDatabases) throws {
        let key = Array(event.streamID.utf8)
        let count = try txn.value(for: key, in: databases["counts"]).map(Self.decode) ?? 0
        try txn.put(Self.encode(count + weight), for: key, in: databases["counts"])
        let applied = try txn.value(for: Array("applied".utf8), in: databases["totals"]).map(Self.decode) ?? 0
        try txn.put(Self.encode(applied + 1), for: Array("applied".utf8), in: databases["totals"])
        try txn.put(Self.encode(event.position), for: Array("last".utf8), in: databases["totals"])
    }

    static func encode(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
    static func decode(_ bytes: [UInt8]) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }

    /// (applied, last position) as a reader sees them in one read transaction.
    static func totals(_ store: EventStore) throws -> (applied: UInt64, last: UInt64) {
        try store.readViews { txn, databases in
            (try txn.value(for: Array("applied".utf8), in: databases["totals"]).map(decode) ?? 0,
             try txn.value(for: Array("last".utf8), in: databases["totals"]).map(decode) ?? 0)
        }
    }

    static func count(_ store: EventStore, _ stream: String) throws -> UInt64 {
        try store.readViews { txn, databases in try txn.value(for: Array(stream.utf8), in: databases["counts"]).map(decode) ?? 0 }
    }
}
