import LMDBKit

/// The last position of the log and its hash: where the next event chains on.
struct ChainHead: Sendable, Hashable {
    var position: UInt64
    var hash: ChainDigest

    static let empty = ChainHead(position: 0, hash: .genesis)

    static func load(_ txn: borrowing Transaction, _ databases: StoreDatabases) throws -> ChainHead {
        guard let bytes = try txn.value(for: StoreKeys.head, in: databases.meta) else { return .empty }
        guard bytes.count == 40 else {
            throw EventStoreError.corruptRecord(position: 0, reason: "the stored chain head is \(bytes.count) bytes, not 40")
        }
        let hash = bytes.withUnsafeBytes { ChainDigest(unchecked: UnsafeRawBufferPointer(rebasing: $0[8...])) }
        return ChainHead(position: StoreKeys.readUInt64(bytes), hash: hash)
    }

    func save(_ txn: borrowing Transaction, _ databases: StoreDatabases) throws {
        try txn.put(StoreKeys.bigEndian(position) + hash.bytes, for: StoreKeys.head, in: databases.meta)
    }
}
