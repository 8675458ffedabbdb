import LMDBKit

/// Where a tag points: the last event that declared it (``NewEvent/tags``), read from the store's `tag-index`.
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

    /// Reads the `tag-index` entry of `tag` in `txn`, or nil when no event declared it. A value that is not a position
    /// followed by a stream id is a damaged index.
    static func read(_ tag: String, in txn: borrowing Transaction, databases: StoreDatabases) throws -> TaggedEvent? {
        guard StoreKeys.problem(withTag: tag) == nil else { return nil }
        return try txn.withValue(for: Array(tag.utf8), in: databases.tags) { value in
            guard let value else { return nil }
            guard value.count > 8, let stream = String(utf8Bytes: UnsafeRawBufferPointer(rebasing: value[8...])) else {
                throw EventStoreError.corruptIndex(
                    name: StoreDatabases.tagsName, reason: "the entry of tag \(tag.prefix(64).debugDescription) is not a position and a stream id")
            }
            return TaggedEvent(streamID: stream, position: StoreKeys.readUInt64(value))
        }
    }
}
