import Foundation
import LMDBKit

extension EventStore {
    /// Why an exported event cannot be imported for its envelope alone, or nil: a stream id an append refuses
    /// (LMDB's own refusal of an empty key named neither the event nor the line), or a time paylog cannot record
    /// (``Timestamp/isRecordable``), which every reader would then have to print and subtract.
    static func importProblem(streamID: String, recordedAtUs: Int64, observedAtUs: Int64?) -> String? {
        if let problem = StoreKeys.problem(with: streamID) {
            return "stream \(String(streamID.prefix(64)).debugDescription) cannot be a stream id: \(problem)"
        }
        for (field, value) in [("recorded_at_us", recordedAtUs), ("observed_at_us", observedAtUs)] {
            guard let value, !Timestamp(microseconds: value).isRecordable else { continue }
            return "\(field) \(value) is outside the times paylog records (\(Timestamp.earliestRecordable.rfc3339) to "
                + "\(Timestamp.latestRecordable.rfc3339), \(Timestamp.earliestRecordable.microseconds) to "
                + "\(Timestamp.latestRecordable.microseconds) µs): the export was altered or not written by paylog"
        }
        return nil
    }

    /// Restores exported events into this store, keeping their ids, positions, versions, times and hashes.
    ///
    /// The store must hold exactly the events before the batch (for a whole log: be empty). Each event must
    /// take the next position and its stream's next version, and the hash recomputed from its fields and the
    /// previous hash must equal the exported hash — so a restored log verifies exactly as the original did, and
    /// an edited export is refused. Inline projections are applied as events are written. Runs on the writer
    /// thread, one transaction per call: all of the batch or nothing.
    public func importEvents(_ events: [RecordedEvent]) async throws(EventStoreError) {
        guard !events.isEmpty else { return }
        try await onWriterThread { [environment, databases] in
            try environment.write { txn in
                var head = try ChainHead.load(txn, databases)
                // A store emptied behind paylog's back (its events and head deleted) passes for an empty one, but its
                // views' checkpoints still stand where the log ended: importing would overwrite them.
                if let ahead = try head.viewAhead(txn, databases) {
                    throw EventStoreError.logCutShort(view: ahead.view, checkpoint: ahead.position, head: head.position)
                }
                for event in events {
                    guard event.position == head.position + 1 else {
                        // Ahead of the store: the export has no line for a position (removed or lost). At or behind it:
                        // the store was not empty, or the export repeats or reorders lines.
                        let reason = event.position > head.position + 1
                            ? "position \(head.position + 1) is missing: the export has no line for it before "
                                + "\(event.position) (lines were removed or lost); export the log again"
                            : "the store already holds positions up to \(head.position): import into an empty store, "
                                + "from an export whose lines are in order, each once"
                        throw EventStoreError.importMismatch(position: event.position, reason: reason)
                    }
                    if let problem = EventStore.importProblem(
                        streamID: event.streamID, recordedAtUs: event.recordedAt.microseconds,
                        observedAtUs: event.observedAt?.microseconds)
                    {
                        throw EventStoreError.importMismatch(position: event.position, reason: problem)
                    }
                    for tag in event.tags ?? [] {
                        if let problem = StoreKeys.problem(withTag: tag) {
                            throw EventStoreError.importMismatch(
                                position: event.position, reason: "tag \(tag.prefix(64).debugDescription) cannot be indexed: \(problem)")
                        }
                    }
                    let version = try StreamTail.read(event.streamID, in: txn, databases: databases).version
                    guard event.version == version + 1 else {
                        throw EventStoreError.importMismatch(
                            position: event.position, reason: "stream \(event.streamID) is at version \(version), the event says \(event.version)")
                    }
                    let (value, hash) = RecordCodec.storedValue(
                        try event.newEvent, streamID: event.streamID, version: event.version, position: event.position,
                        recordedAt: event.recordedAt, previous: head.hash, dictionaries: databases.payloads)
                    guard hash == event.hash else {
                        throw EventStoreError.importMismatch(
                            position: event.position, reason: "the recomputed hash differs from the exported one: the export was altered")
                    }
                    guard try txn.value(for: StoreKeys.eventID(event.id), in: databases.ids) == nil else {
                        throw EventStoreError.importMismatch(position: event.position, reason: "event id \(event.id) is already stored")
                    }
                    try Writer.put(
                        value: value, id: event.id, streamID: event.streamID, version: event.version,
                        position: event.position, tags: event.tags, in: txn, databases: databases)
                    head = ChainHead(position: event.position, hash: hash)
                    try Writer.applyProjections(event, in: txn, databases: databases)
                }
                try Writer.saveHead(head, in: txn, databases: databases)
            }
        }
    }
}
