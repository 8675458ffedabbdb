import LMDBKit

/// The log format a store records in `meta` (``StoreKeys/format``: a UInt32, big-endian), read the one way every
/// open reads it.
enum StoredFormat {
    /// The store's recorded log format, or nil for a store never opened (no format and no event).
    ///
    /// - Throws: ``EventStoreError/metaDamaged(entry:reason:)`` when the entry is not 4 bytes, or is missing
    ///   although the log holds events: every release since format 1 wrote it with the store's first transaction,
    ///   so its absence beside events is damage, and writing the current format there would read an older log as
    ///   if it were new, and hide the damage.
    static func read(_ txn: borrowing Transaction, meta: Database) throws -> UInt32? {
        guard let stored = try txn.value(for: StoreKeys.format, in: meta) else {
            let count = try txn.openDatabase("events", create: false).map { try txn.count($0) } ?? 0
            if count > 0 {
                throw EventStoreError.metaDamaged(entry: "format", reason: "is missing, but the log holds \(count) event(s)")
            }
            return nil
        }
        guard stored.count == 4 else {
            throw EventStoreError.metaDamaged(entry: "format", reason: "is \(stored.count) bytes, not 4")
        }
        return stored.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
}
