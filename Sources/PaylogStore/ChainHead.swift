import LMDBKit

/// The last position of the log and its hash: where the next event chains on.
struct ChainHead: Sendable, Hashable {
    var position: UInt64
    var hash: ChainDigest

    static let empty = ChainHead(position: 0, hash: .genesis)

    static func load(_ txn: borrowing Transaction, _ databases: StoreDatabases) throws -> ChainHead {
        try load(txn, meta: databases.meta)
    }

    /// The head stored in `meta` (``empty`` when none is), or ``EventStoreError/metaDamaged(entry:reason:)`` when it
    /// is not 40 bytes: what the open checks before it writes anything.
    static func load(_ txn: borrowing Transaction, meta: Database) throws -> ChainHead {
        guard let bytes = try txn.value(for: StoreKeys.head, in: meta) else { return .empty }
        guard bytes.count == 40 else {
            throw EventStoreError.metaDamaged(entry: "head", reason: "is \(bytes.count) bytes, not 40")
        }
        let hash = bytes.withUnsafeBytes { ChainDigest(unchecked: UnsafeRawBufferPointer(rebasing: $0[8...])) }
        return ChainHead(position: StoreKeys.readUInt64(bytes), hash: hash)
    }

    /// The head an append continues from, checked against the log's last event: when they differ (events removed
    /// from the log's end, the head edited, or an event written past it), appending would leave a gap or collide with
    /// a record, so the append is refused, naming both positions. So is an append to a log whose live views stand
    /// past its head (``viewAhead(_:_:)``): a log cut short with its head rewritten. One cursor descent and a `meta`
    /// lookup per view, per write transaction.
    static func loadForAppend(_ txn: borrowing Transaction, _ databases: StoreDatabases) throws -> ChainHead {
        let head = try load(txn, databases)
        let last = try txn.withCursor(databases.events) { cursor -> UInt64 in
            guard try cursor.move(.last) else { return 0 }
            return try cursor.withCurrent { key, _ in try StoreKeys.position(ofEventKey: key) }
        }
        guard last == head.position else {
            throw EventStoreError.corruptIndex(
                name: "events",
                reason: "the chain head says the log ends at position \(head.position), but its last event is at position "
                    + "\(last): events were removed from its end, the head was edited, or an event was written past it. "
                    + "Nothing was appended; `paylog verify` says where the chain breaks")
        }
        if let ahead = try head.viewAhead(txn, databases) {
            throw EventStoreError.logCutShort(view: ahead.view, checkpoint: ahead.position, head: head.position)
        }
        return head
    }

    func save(_ txn: borrowing Transaction, _ databases: StoreDatabases) throws {
        try txn.put(StoreKeys.bigEndian(position) + hash.bytes, for: StoreKeys.head, in: databases.meta)
    }
}
