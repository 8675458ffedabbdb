import LMDBKit

/// Where an inline projection stands: its code version and the last global position applied.
/// Stored in `meta` under `projection:<name>` as version u64 · position u64.
struct ProjectionCheckpoint: Sendable, Hashable {
    var version: UInt64
    var position: UInt64

    static func key(_ name: String) -> [UInt8] { Array("projection:\(name)".utf8) }

    static func load(_ name: String, _ txn: borrowing Transaction, _ meta: Database) throws -> ProjectionCheckpoint? {
        guard let bytes = try txn.value(for: key(name), in: meta), bytes.count == 16 else { return nil }
        return ProjectionCheckpoint(version: StoreKeys.readUInt64(bytes), position: StoreKeys.readUInt64(bytes, at: 8))
    }

    func save(_ name: String, _ txn: borrowing Transaction, _ meta: Database) throws {
        try txn.put(StoreKeys.bigEndian(version) + StoreKeys.bigEndian(position), for: ProjectionCheckpoint.key(name), in: meta)
    }
}
