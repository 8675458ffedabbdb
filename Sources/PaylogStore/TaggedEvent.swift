import LMDBKit

/// Where a tag points: the last event that declared it (``NewEvent/tags``), read from the store's `tag-index`.
///
/// Stored as the position u64 big-endian followed by the stream id's UTF-8 bytes (``encoded``). A view that keeps
/// keys of its own beside the index (paylog's status view keeps the routing keys of events recorded before log
/// format 5) stores them the same way, so that a key found in both is resolved by position.
public struct TaggedEvent: Sendable, Hashable {
    /// The stream of the last event declaring the tag.
    public var streamID: String
    /// That event's global position.
    public var position: UInt64

    /// A tag's target.
    public init(streamID: String, position: UInt64) {
        self.streamID = streamID
        self.position = position
    }

    /// Reads a target stored as ``encoded``; nil when the bytes are not a position followed by a UTF-8 stream id.
    public init?(encoded bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 8, let stream = String(utf8Bytes: UnsafeRawBufferPointer(rebasing: bytes[8...])) else {
            return nil
        }
        self.init(streamID: stream, position: StoreKeys.readUInt64(bytes))
    }

    /// The stored form: the position u64 big-endian, then the stream id's UTF-8 bytes.
    public var encoded: [UInt8] {
        var bytes = StoreKeys.bigEndian(position)
        bytes.append(contentsOf: streamID.utf8)
        return bytes
    }

    /// Reads the `tag-index` entry of `tag` in `txn`, or nil when no event declared it. A value that is not a
    /// position followed by a stream id is a damaged index.
    static func read(_ tag: String, in txn: borrowing Transaction, databases: StoreDatabases) throws -> TaggedEvent? {
        guard StoreKeys.problem(withTag: tag) == nil else { return nil }
        return try txn.withValue(for: Array(tag.utf8), in: databases.tags) { value in
            guard let value else { return nil }
            guard let target = TaggedEvent(encoded: value) else {
                throw EventStoreError.corruptIndex(
                    name: StoreDatabases.tagsName,
                    reason: "the entry of tag \(tag.prefix(64).debugDescription) is not a position and a stream id")
            }
            return target
        }
    }
}
