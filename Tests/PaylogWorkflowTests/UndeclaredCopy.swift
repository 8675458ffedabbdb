import PaylogStore

/// Test helper: a log as the builds before log format 5 recorded it. Copies every event of a store, in log order,
/// into another through plain appends that declare no tags, so that the copy's status view derives every routing
/// key from the payloads (its `routes`), as it does for events recorded before format 5.
enum UndeclaredCopy {
    /// Appends every event of `source` to `target` (a store with the status view), declaring no tags, in one write
    /// session; returns how many events it copied.
    @discardableResult
    static func copy(_ source: EventStore, into target: EventStore) async throws -> Int {
        let events = try source.read(from: 1, limit: 1_000_000)
        let copies = try events.map { event in
            (stream: event.streamID, event: NewEvent(
                id: event.id, type: event.type, schemaVersion: event.schemaVersion, payload: try event.payload,
                observedAt: event.observedAt, correlationID: event.correlationID, causationID: event.causationID,
                actor: event.actor, tags: nil))
        }
        try await target.withWriteSession { session in
            for copy in copies { _ = try session.append([copy.event], to: copy.stream) }
        }
        return copies.count
    }
}
