extension RecordedEvent {
    /// The event as stored, from the caller's fields and the envelope the store assigned: what decoding the
    /// stored record would give, without decoding it.
    init(_ event: NewEvent, streamID: String, version: UInt64, position: UInt64, recordedAt: Timestamp, hash: ChainDigest) {
        self.init(
            id: event.id, streamID: streamID, version: version, position: position, type: event.type,
            schemaVersion: event.schemaVersion, recordedAt: recordedAt, observedAt: event.observedAt,
            correlationID: event.correlationID, causationID: event.causationID, actor: event.actor, tags: event.tags,
            payload: event.payload, hash: hash)
    }

    /// The caller-supplied part of the event (its payload decompressed).
    var newEvent: NewEvent {
        get throws(EventStoreError) {
            NewEvent(
                id: id, type: type, schemaVersion: schemaVersion, payload: try payload, observedAt: observedAt,
                correlationID: correlationID, causationID: causationID, actor: actor, tags: tags)
        }
    }
}
