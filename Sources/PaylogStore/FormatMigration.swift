import LMDBKit

/// Brings a store written in an older log format to ``StoreKeys/currentFormat``, inside the write transaction
/// that opens it, so a store is either migrated whole or left exactly as it was.
///
/// Only indexes change between formats; `events` — the evidence and its hash chain — is never touched.
enum FormatMigration {
    /// Format 1 → 2: the stream index moves from `streams` (one entry per event: stream id · NUL · version →
    /// position) to `versions` (stream id · NUL · chunk → the positions of 64 versions), a third of the bytes.
    ///
    /// `versions` must be missing or empty: a format-1 store never had one. Every stream's versions must run
    /// 1, 2, 3, … without a gap, as format 1 wrote them.
    static func moveStreamIndex(_ txn: borrowing Transaction) throws {
        guard let old = try txn.openDatabase(StoreDatabases.formatOneStreamsName, create: false) else { return }
        guard let versions = try txn.openDatabase(StoreDatabases.versionsName, create: true) else { return }
        guard try txn.count(versions) == 0 else {
            throw EventStoreError.migrationFailed(
                from: 1, reason: "the store already holds a `\(StoreDatabases.versionsName)` index, which format 1 never wrote")
        }
        // Format 1's keys sort by stream id, then version: a chunk's positions arrive together and in order.
        var stream: [UInt8] = []
        var lastVersion: UInt64 = 0
        var positions: [UInt8] = []
        func flush(_ txn: borrowing Transaction) throws {
            guard !positions.isEmpty else { return }
            let key = StoreKeys.versionsKey(id: stream, chunk: StoreKeys.chunk(of: lastVersion).chunk)
            try txn.put(positions, for: key, in: versions)
            positions.removeAll(keepingCapacity: true)
        }
        try txn.withCursor(old) { cursor in
            var found = try cursor.move(.first)
            while found {
                let (id, version, position) = try cursor.withCurrent { key, value in
                    // Stream ids hold no NUL, so the separator is 9 bytes from the end.
                    guard key.count > 9, key[key.count - 9] == 0, value.count == 8 else {
                        throw EventStoreError.migrationFailed(
                            from: 1, reason: "a `streams` entry with a \(key.count)-byte key and a \(value.count)-byte "
                                + "value is not stream id · NUL · version → position")
                    }
                    return (Array(key[..<(key.count - 9)]), StoreKeys.readUInt64(key, at: key.count - 8), Array(value))
                }
                if id != stream {
                    try flush(txn)
                    stream = id
                    lastVersion = 0
                }
                guard version == lastVersion + 1 else {
                    throw EventStoreError.migrationFailed(
                        from: 1, reason: "stream \(String(decoding: id, as: UTF8.self)) has version \(version) after "
                            + "\(lastVersion) in `streams`")
                }
                if StoreKeys.chunk(of: version).index == 0 { try flush(txn) }
                positions.append(contentsOf: position)
                lastVersion = version
                found = try cursor.move(.next)
            }
        }
        try flush(txn)
        try txn.deleteDatabase(old)
    }

    /// Formats 1–3 → 4: deletes `heads` (stream id → last version · last position). Every stream's last `versions`
    /// entry says the same (``StreamTail``), so nothing is lost; only the database's pages are freed. Its leaves
    /// are not read: LMDB frees them from their branch pages.
    static func dropHeads(_ txn: borrowing Transaction) throws {
        guard let heads = try txn.openDatabase(StoreDatabases.formatThreeHeadsName, create: false) else { return }
        try txn.deleteDatabase(heads)
    }
}
