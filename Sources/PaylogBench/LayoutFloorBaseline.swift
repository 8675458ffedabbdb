import CLMDB
import Foundation

/// The ceiling of `append-concurrent` on this machine: paylog's own log layout written straight on LMDB's C API, a
/// group of one-event appends per durable commit, with none of paylog's code — no tasks, no writer thread, no
/// encoding, no hashing.
///
/// Per event it does the LMDB work an append does (``PaylogStore``'s writer): the `ids` lookup, the stream's tail
/// read from `versions` (a cursor seek past the stream's keys and one step back), the record put into `events`
/// (`MDB_APPEND | MDB_RESERVE`, a 403-byte value: what a bench event with its 300-byte payload is stored as), its
/// `ids` entry, and its `versions` chunk extended (read and put again, or a new chunk); per commit the chain head in
/// `meta`. The streams are the scenario's: each of `group` callers owns its streams, six events each.
///
/// What it shows: with paylog's pages per commit (the layout) and none of its CPU, how many events per second the
/// disk allows. Against it, `append-concurrent`'s own rate says how much of each commit cycle is paylog's work in
/// sequence with the commit (Docs/performance.md, *append-concurrent*).
enum LayoutFloorBaseline {
    /// The stored size of a bench event: the 33-byte record header, its envelope (id, 18-byte stream id, version,
    /// position, type `BenchEvent`, schema version, recording time) and the 300-byte payload's field — at positions
    /// 16,384 to 2,097,151, whose varint takes three bytes, as in the scenario's default run of 50,000 events.
    static let recordBytes = 403

    /// Writes `commits` durable commits of `group` events each into a new environment in `directory` and returns the
    /// events appended per second. The caller removes the directory.
    static func run(directory: String, commits: Int, group: Int) throws(BenchError) -> Double {
        let env = try RawLMDBBaseline.openEnvironment(directory, databases: 4, label: "floor")
        defer { mdb_env_close(env) }

        var txn: OpaquePointer?
        var databases: [MDB_dbi] = [0, 0, 0, 0]
        try check(mdb_txn_begin(env, nil, 0, &txn), "floor transaction begin")
        for (index, name) in ["events", "ids", "versions", "meta"].enumerated() {
            try check(mdb_dbi_open(txn, name, UInt32(MDB_CREATE), &databases[index]), "floor open of \(name)")
        }
        try check(mdb_txn_commit(txn), "floor commit")
        let (events, ids, versions, meta) = (databases[0], databases[1], databases[2], databases[3])

        // Scratch: the record, the keys, the chunk being extended and the head, built in place for every event.
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        defer { scratch.deallocate() }
        scratch.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "x"))
        let record = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<recordBytes])
        let positionKey = UnsafeMutableRawBufferPointer(rebasing: scratch[512..<520])
        let idKey = UnsafeMutableRawBufferPointer(rebasing: scratch[520..<536])
        let seek = UnsafeMutableRawBufferPointer(rebasing: scratch[536..<560])  // stream id · NUL · five 0xFF
        let versionsKey = UnsafeMutableRawBufferPointer(rebasing: scratch[560..<583])  // stream id · NUL · chunk
        let head = UnsafeMutableRawBufferPointer(rebasing: scratch[600..<640])
        let chunk = UnsafeMutableRawBufferPointer(rebasing: scratch[1024..<1536])
        let headKey = UnsafeMutableRawBufferPointer(rebasing: scratch[640..<644])
        headKey.copyBytes(from: Array("head".utf8))

        var position: UInt64 = 0
        var sequence = [Int](repeating: 0, count: group)
        let start = Stopwatch.now()
        for commit in 0..<commits {
            try check(mdb_txn_begin(env, nil, 0, &txn), "floor transaction begin")
            do throws(BenchError) {
                for caller in 0..<group {
                    let index = UInt64(commit * group + caller)
                    let stream = (sequence[caller] / 6) * group + caller
                    sequence[caller] += 1
                    writeStreamID(stream, into: seek)
                    writeStreamID(stream, into: versionsKey)
                    storeBigEndian(1, into: idKey, at: 0)
                    storeBigEndian(index, into: idKey, at: 8)
                    // The append's checks: the id is new, and where the stream ends.
                    var key = MDB_val(mv_size: idKey.count, mv_data: idKey.baseAddress)
                    var value = MDB_val()
                    let found = mdb_get(txn, ids, &key, &value)
                    guard found == MDB_NOTFOUND else { throw BenchError.lmdb(operation: "floor ids lookup", code: found) }
                    let version = try tail(of: seek, in: txn, versions: versions)
                    // The record, its id, its version.
                    position += 1
                    storeBigEndian(position, into: positionKey, at: 0)
                    key = MDB_val(mv_size: positionKey.count, mv_data: positionKey.baseAddress)
                    value = MDB_val(mv_size: record.count, mv_data: nil)
                    try check(mdb_put(txn, events, &key, &value, UInt32(MDB_APPEND | MDB_RESERVE)), "floor put of an event")
                    guard let reserved = value.mv_data else { throw BenchError.lmdb(operation: "floor reserve", code: -1) }
                    reserved.copyMemory(from: record.baseAddress!, byteCount: record.count)
                    key = MDB_val(mv_size: idKey.count, mv_data: idKey.baseAddress)
                    value = MDB_val(mv_size: positionKey.count, mv_data: positionKey.baseAddress)
                    try check(mdb_put(txn, ids, &key, &value, 0), "floor put of an id")
                    let at = Int(version % 64)
                    storeBigEndian(UInt32(version / 64), into: versionsKey, at: 19)
                    key = MDB_val(mv_size: versionsKey.count, mv_data: versionsKey.baseAddress)
                    if at > 0 {
                        try check(mdb_get(txn, versions, &key, &value), "floor read of a versions chunk")
                        guard let earlier = value.mv_data else { throw BenchError.lmdb(operation: "floor chunk read", code: -1) }
                        chunk.baseAddress!.copyMemory(from: earlier, byteCount: at * 8)
                    }
                    storeBigEndian(position, into: chunk, at: at * 8)
                    value = MDB_val(mv_size: (at + 1) * 8, mv_data: chunk.baseAddress)
                    try check(mdb_put(txn, versions, &key, &value, 0), "floor put of a versions chunk")
                }
                storeBigEndian(position, into: head, at: 0)
                var key = MDB_val(mv_size: headKey.count, mv_data: headKey.baseAddress)
                var value = MDB_val(mv_size: head.count, mv_data: head.baseAddress)
                try check(mdb_put(txn, meta, &key, &value, 0), "floor put of the head")
            } catch {
                mdb_txn_abort(txn)
                throw error
            }
            // mdb_txn_commit frees the transaction even when it fails.
            try check(mdb_txn_commit(txn), "floor durable commit")
        }
        return Double(commits * group) / Stopwatch.seconds(from: start, to: Stopwatch.now())
    }

    /// The stream's last version, from the `versions` entry before `seek` (0 when it has none).
    private static func tail(
        of seek: UnsafeMutableRawBufferPointer, in txn: OpaquePointer?, versions: MDB_dbi
    ) throws(BenchError) -> UInt64 {
        var cursor: OpaquePointer?
        try check(mdb_cursor_open(txn, versions, &cursor), "floor cursor open")
        defer { mdb_cursor_close(cursor) }
        var key = MDB_val(mv_size: seek.count, mv_data: seek.baseAddress)
        var value = MDB_val()
        var code = mdb_cursor_get(cursor, &key, &value, MDB_SET_RANGE)
        code = code == 0 ? mdb_cursor_get(cursor, &key, &value, MDB_PREV) : mdb_cursor_get(cursor, &key, &value, MDB_LAST)
        if code == MDB_NOTFOUND { return 0 }
        try check(code, "floor tail read")
        guard key.mv_size == 23, let found = key.mv_data, memcmp(found, seek.baseAddress!, 19) == 0 else { return 0 }
        let stored = UnsafeRawBufferPointer(start: key.mv_data, count: key.mv_size)
        let chunk = stored[19..<23].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return chunk * 64 + UInt64(value.mv_size / 8)
    }

    /// `payment-` and `number` in 10 digits, then a NUL, at the start of `bytes`; five 0xFF after it when `bytes` is
    /// a seek key (24 bytes).
    private static func writeStreamID(_ number: Int, into bytes: UnsafeMutableRawBufferPointer) {
        bytes.copyBytes(from: "payment-".utf8)
        var rest = number
        for index in stride(from: 17, through: 8, by: -1) {
            bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        bytes[18] = 0
        if bytes.count == 24 { for index in 19..<24 { bytes[index] = 0xFF } }
    }

    private static func storeBigEndian<T: FixedWidthInteger>(_ value: T, into bytes: UnsafeMutableRawBufferPointer, at offset: Int) {
        bytes.storeBytes(of: value.bigEndian, toByteOffset: offset, as: T.self)
    }

    private static func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(BenchError) {
        try RawLMDBBaseline.check(code, operation())
    }
}
