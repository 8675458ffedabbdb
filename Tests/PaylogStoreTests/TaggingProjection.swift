import LMDBKit
import PaylogStore

/// A test projection that can be folded stream by stream: per stream its event count and last position
/// (`streamstats`, keyed by stream id), and a secondary index `tags` from the event's payload text to the
/// stream of the last event carrying it. With `misordered`, every stream's own row has one constant key, which a
/// stream-folding rebuild must refuse.
struct TaggingProjection: StreamFoldingProjection {
    let name = "tagging"
    var version: UInt64 = 1
    var misordered = false
    let databaseNames = ["streamstats", "tags"]

    func apply(_ event: RecordedEvent, in txn: borrowing Transaction, databases: ProjectionDatabases) throws {
        let key = Array(event.streamID.utf8)
        let count = try txn.value(for: key, in: databases["streamstats"]).map { Self.decode($0.prefix(8)) } ?? 0
        try txn.put(Self.stats(count: count + 1, last: event.position), for: key, in: databases["streamstats"])
        try txn.put(key, for: [UInt8](try event.payload), in: databases["tags"])
    }

    func fold(_ event: RecordedEvent, into state: inout (count: UInt64, last: UInt64)?, rows: inout ViewRows) throws {
        let key = Array(event.streamID.utf8)
        rows.index(key, for: [UInt8](try event.payload), in: "tags", position: event.position)
        state = ((state?.count ?? 0) + 1, event.position)
    }

    func finish(_ state: (count: UInt64, last: UInt64), stream streamID: String, rows: inout ViewRows) throws {
        let key = misordered ? Array("same".utf8) : Array(streamID.utf8)
        rows.append(Self.stats(count: state.count, last: state.last), for: key, in: "streamstats")
    }

    static func stats(count: UInt64, last: UInt64) -> [UInt8] { encode(count) + encode(last) }
    static func encode(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
    static func decode(_ bytes: some Collection<UInt8>) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }
}
