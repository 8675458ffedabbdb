import LMDBKit

/// Where an inline projection's view stands: the projection's code version, the last global position applied and
/// the generation of databases holding it. Stored in `meta` under `projection:<name>` (the live view) or
/// `projection-green:<name>` (a rebuild in progress) as version u64 · position u64 · generation u64
/// (a 16-byte value from before generations means generation 0).
struct ProjectionCheckpoint: Sendable, Hashable {
    var version: UInt64
    var position: UInt64
    var generation: UInt64 = 0

    static func key(_ name: String, green: Bool = false) -> [UInt8] {
        Array((green ? "projection-green:" : "projection:").utf8) + Array(name.utf8)
    }

    static func load(_ name: String, _ txn: borrowing Transaction, _ meta: Database, green: Bool = false) throws -> ProjectionCheckpoint? {
        guard let bytes = try txn.value(for: key(name, green: green), in: meta), bytes.count == 16 || bytes.count == 24 else {
            return nil
        }
        return ProjectionCheckpoint(
            version: StoreKeys.readUInt64(bytes), position: StoreKeys.readUInt64(bytes, at: 8),
            generation: bytes.count == 24 ? StoreKeys.readUInt64(bytes, at: 16) : 0)
    }

    func save(_ name: String, _ txn: borrowing Transaction, _ meta: Database, green: Bool = false) throws {
        try txn.put(
            StoreKeys.bigEndian(version) + StoreKeys.bigEndian(position) + StoreKeys.bigEndian(generation),
            for: ProjectionCheckpoint.key(name, green: green), in: meta)
    }
}
