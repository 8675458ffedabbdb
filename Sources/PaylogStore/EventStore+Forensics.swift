extension EventStore {
    /// Up to `limit` records from `position` on, in one read transaction, each decoded or, when it does not decode,
    /// reported ``StoredRecord/damaged(position:problem:)`` in its place: what `paylog export` reads, so that one
    /// damaged record does not keep the rest of the evidence from being copied out. Errors of the store itself
    /// (LMDB's, a damaged `events` key) are thrown.
    public func storedRecords(from position: UInt64, limit: Int) throws(EventStoreError) -> [StoredRecord] {
        var records: [StoredRecord] = []
        records.reserveCapacity(min(limit, 65_536))
        var names = InternedNames()
        try forEachRaw(from: position, limit: limit) { position, value in
            do throws(EventStoreError) {
                records.append(.event(try RecordCodec.decode(value, position: position, dictionaries: databases.payloads, names: &names)))
            } catch {
                records.append(.damaged(position: position, problem: error))
            }
            return true
        }
        return records
    }

    /// The bytes stored at `position` in `events`, exactly as LMDB holds them (header, hash, envelope, payload or its
    /// zstd frame), or nil when there is no record there: what an export shows of a record that does not decode.
    public func storedBytes(at position: UInt64) throws(EventStoreError) -> [UInt8]? {
        try reading { txn in try txn.value(for: StoreKeys.event(position), in: databases.events) }
    }
}
