import Foundation
import LMDBKit

extension EventStore {
    /// The position the stream index (`versions`) gives for version `version` of stream `streamID`, or nil when it
    /// has none. `paylog stream`, the audit and time travel read a payment's events through this index, so the
    /// replay checks it against every event (``streamIndexEntryCount()`` for entries no event has).
    public func indexedPosition(of streamID: String, version: UInt64) throws(EventStoreError) -> UInt64? {
        guard version >= 1 else { return nil }
        let (chunk, index) = StoreKeys.chunk(of: version)
        return try reading { txn in
            try txn.withValue(for: StoreKeys.versionsKey(streamID, chunk: chunk), in: databases.versions) { value in
                guard let value, (index + 1) * 8 <= value.count else { return nil }
                return StoreKeys.readUInt64(value, at: index * 8)
            }
        }
    }

    /// The position the id index (`ids`) gives for event id `id`, or nil when it has none. An append recognises an
    /// observation already recorded through this index, so the replay checks it against every event: an entry lost
    /// would let the same observation be recorded twice.
    public func indexedPosition(ofEventID id: UUID) throws(EventStoreError) -> UInt64? {
        try reading { txn in
            try txn.withValue(for: StoreKeys.eventID(id), in: databases.ids) { value in
                guard let value, value.count >= 8 else { return nil }
                return StoreKeys.readUInt64(value)
            }
        }
    }

    /// How many positions the stream index holds in all: one per event of an intact log.
    public func streamIndexEntryCount() throws(EventStoreError) -> UInt64 {
        try reading { txn in try streamIndexEntryCount(in: txn) }
    }

    /// ``streamIndexEntryCount()`` as `txn` sees the index.
    func streamIndexEntryCount(in txn: borrowing Transaction) throws -> UInt64 {
        var total: UInt64 = 0
        try txn.withCursor(databases.versions) { cursor in
            var found = try cursor.move(.first)
            while found {
                total += UInt64(cursor.withCurrent { _, value in value.count / 8 })
                found = try cursor.move(.next)
            }
        }
        return total
    }
}
