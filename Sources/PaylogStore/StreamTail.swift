import LMDBKit

/// Where a stream ends: its last version and the position of its last event, read from the stream's last
/// `versions` entry (since log format 4; formats 1–3 kept them in a `heads` database as well).
///
/// A stream's `versions` entries sort together (stream id · NUL · chunk), so its last entry is the one before the
/// first key past every chunk of the stream: one cursor descent, the same as the `heads` lookup it replaces, and
/// an append no longer writes a `heads` entry (and its leaf and branch pages) besides the chunk it extends anyway.
struct StreamTail: Equatable, Sendable {
    /// The stream's last version (0 when it has no events).
    var version: UInt64
    /// The global position of the stream's last event (0 when it has no events).
    var position: UInt64

    /// The tail of a stream without events.
    static let empty = StreamTail(version: 0, position: 0)

    /// The tail of stream `streamID` as `txn` sees it.
    static func read(_ streamID: String, in txn: borrowing Transaction, databases: StoreDatabases) throws -> StreamTail {
        var streamID = streamID
        return try streamID.withUTF8 { try read(id: UnsafeRawBufferPointer($0), in: txn, versions: databases.versions) }
    }

    /// The tail of the stream whose id is the UTF-8 bytes `id`, read from `versions`.
    static func read(id: UnsafeRawBufferPointer, in txn: borrowing Transaction, versions: Database) throws -> StreamTail {
        // Past every key of the stream: its keys end in NUL and a 4-byte chunk, so NUL and five 0xFF bytes sort
        // after all of them, and before any other stream's (a longer id has a byte above NUL where this one's NUL is).
        var seek = [UInt8](id)
        seek.append(0)
        seek.append(contentsOf: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF] as [UInt8])
        return try txn.withCursor(versions) { cursor in
            let found = try cursor.move(.atOrAfter, key: seek) ? try cursor.move(.previous) : try cursor.move(.last)
            guard found else { return .empty }
            return cursor.withCurrent { key, value in
                guard let chunk = chunk(ofKey: key, id: id) else { return .empty }
                return tail(chunk: chunk, positions: value) ?? .empty
            }
        }
    }

    /// The chunk number of `key` when it is a `versions` key of stream `id`, else nil.
    static func chunk(ofKey key: UnsafeRawBufferPointer, id: UnsafeRawBufferPointer) -> UInt32? {
        guard key.count == id.count + 5, key[id.count] == 0, key.starts(with: id) else { return nil }
        return StoreKeys.readUInt32(key, at: id.count + 1)
    }

    /// The tail a stream's last `versions` entry says: chunk `chunk` holding `positions` (8 bytes each). Nil when
    /// the value is not a whole, non-empty list of positions.
    static func tail(chunk: UInt32, positions: UnsafeRawBufferPointer) -> StreamTail? {
        guard positions.count >= 8, positions.count % 8 == 0,
              positions.count <= Int(StoreKeys.versionsPerChunk) * 8 else { return nil }
        return StreamTail(
            version: UInt64(chunk) * StoreKeys.versionsPerChunk + UInt64(positions.count / 8),
            position: StoreKeys.readUInt64(positions, at: positions.count - 8))
    }
}
