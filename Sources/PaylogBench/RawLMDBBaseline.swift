import CLMDB
import Foundation

/// The physical reference, written straight on LMDB's C API in the same process and run as the benchmark: the
/// same workload as `lmdb-reference.c`. Each event is a value of `payloadBytes` under an 8-byte big-endian
/// position (`MDB_APPEND`), plus one stream-index entry (`payment-%010d` + 8-byte big-endian version → position);
/// `batch` events per durable (fsync'd) transaction; then a cursor scan of every event. No encoding, no hash,
/// no other index.
enum RawLMDBBaseline {
    /// Writes `events` events into a new environment in `directory`, `batch` per durable commit, and scans them
    /// when `scan` is set. The caller removes the directory.
    static func run(
        directory: String, events: Int, batch: Int, payloadBytes: Int = 300, eventsPerStream: Int = 6, scan: Bool
    ) throws(BenchError) -> RawLMDBFigures {
        let env = try openEnvironment(directory, databases: 4, label: "raw")
        defer { mdb_env_close(env) }

        var txn: OpaquePointer?
        var eventsDB: MDB_dbi = 0
        var streamsDB: MDB_dbi = 0
        try check(mdb_txn_begin(env, nil, 0, &txn), "raw transaction begin")
        try check(mdb_dbi_open(txn, "events", UInt32(MDB_CREATE), &eventsDB), "raw open of events")
        try check(mdb_dbi_open(txn, "streams", UInt32(MDB_CREATE), &streamsDB), "raw open of streams")
        try check(mdb_txn_commit(txn), "raw commit")

        var payload = [UInt8](repeating: UInt8(ascii: "x"), count: payloadBytes)
        var position = [UInt8](repeating: 0, count: 8)
        // "payment-" + 10 digits + 8-byte version: the same 26 bytes as the C reference's stream key.
        var streamKey = Array("payment-0000000000".utf8) + [UInt8](repeating: 0, count: 8)
        let start = Stopwatch.now()
        var written = 0
        while written < events {
            try check(mdb_txn_begin(env, nil, 0, &txn), "raw transaction begin")
            var inBatch = 0
            while inBatch < batch && written < events {
                writeBigEndian(UInt64(written), into: &position, at: 0)
                writeDecimal(written / eventsPerStream, into: &streamKey, at: 8, digits: 10)
                writeBigEndian(UInt64(written % eventsPerStream), into: &streamKey, at: 18)
                let code: Int32 = position.withUnsafeMutableBytes { key in
                    payload.withUnsafeMutableBytes { value in
                        var k = MDB_val(mv_size: key.count, mv_data: key.baseAddress)
                        var v = MDB_val(mv_size: value.count, mv_data: value.baseAddress)
                        return mdb_put(txn, eventsDB, &k, &v, UInt32(MDB_APPEND))
                    }
                }
                if code != 0 { mdb_txn_abort(txn); try check(code, "raw put of an event") }
                let indexCode: Int32 = streamKey.withUnsafeMutableBytes { key in
                    position.withUnsafeMutableBytes { value in
                        var k = MDB_val(mv_size: key.count, mv_data: key.baseAddress)
                        var v = MDB_val(mv_size: value.count, mv_data: value.baseAddress)
                        return mdb_put(txn, streamsDB, &k, &v, 0)
                    }
                }
                if indexCode != 0 { mdb_txn_abort(txn); try check(indexCode, "raw put of a stream index entry") }
                inBatch += 1
                written += 1
            }
            // mdb_txn_commit frees the transaction even when it fails.
            try check(mdb_txn_commit(txn), "raw durable commit")
        }
        let appended = Stopwatch.now()
        let appendRate = Double(events) / Stopwatch.seconds(from: start, to: appended)

        var scanRate: Double?
        if scan {
            try check(mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn), "raw read transaction begin")
            defer { mdb_txn_abort(txn) }
            var cursor: OpaquePointer?
            try check(mdb_cursor_open(txn, eventsDB, &cursor), "raw cursor open")
            defer { mdb_cursor_close(cursor) }
            var key = MDB_val()
            var value = MDB_val()
            var seen = 0
            var bytes = 0
            let scanStart = Stopwatch.now()
            var code = mdb_cursor_get(cursor, &key, &value, MDB_FIRST)
            while code == 0 {
                seen += 1
                bytes &+= value.mv_size
                code = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)
            }
            let scanEnd = Stopwatch.now()
            guard code == MDB_NOTFOUND else { throw .lmdb(operation: "raw cursor scan", code: code) }
            guard seen == events else {
                throw .failed(step: "raw-LMDB scan", reason: "scanned \(seen) events of \(events) written (\(bytes) bytes)")
            }
            scanRate = Double(seen) / Stopwatch.seconds(from: scanStart, to: scanEnd)
        }
        return RawLMDBFigures(
            events: events, batch: batch, appendEventsPerSecond: appendRate, scanEventsPerSecond: scanRate,
            bytesPerEvent: Double(StoreFootprint.usedBytes(of: env)) / Double(events))
    }

    /// Creates `directory` when missing and opens a new environment there on LMDB's C API, as paylog opens its own
    /// (`MDB_NOTLS`, durable commits), with a 64 GiB map and room for `databases` named databases. `label` names the
    /// baseline in errors. The caller closes it (`mdb_env_close`).
    static func openEnvironment(_ directory: String, databases: Int, label: String) throws(BenchError) -> OpaquePointer {
        if mkdir(directory, 0o755) != 0 && errno != EEXIST {
            throw .filesystem(path: directory, reason: String(cString: strerror(errno)))
        }
        var handle: OpaquePointer?
        try check(mdb_env_create(&handle), "\(label) environment create")
        guard let env = handle else { throw .lmdb(operation: "\(label) environment create", code: -1) }
        do throws(BenchError) {
            try check(mdb_env_set_mapsize(env, 64 << 30), "\(label) set map size")
            try check(mdb_env_set_maxdbs(env, MDB_dbi(databases)), "\(label) set max databases")
            try check(mdb_env_open(env, directory, UInt32(MDB_NOTLS), 0o644), "\(label) open of \(directory)")
        } catch {
            mdb_env_close(env)
            throw error
        }
        return env
    }

    /// Throws ``BenchError/lmdb(operation:code:)`` unless `code` is zero.
    static func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(BenchError) {
        if code != 0 { throw .lmdb(operation: operation(), code: code) }
    }

    private static func writeBigEndian(_ value: UInt64, into bytes: inout [UInt8], at offset: Int) {
        for index in 0..<8 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64(index))) }
    }

    private static func writeDecimal(_ value: Int, into bytes: inout [UInt8], at offset: Int, digits: Int) {
        var rest = value
        for index in stride(from: offset + digits - 1, through: offset, by: -1) {
            bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }
}
