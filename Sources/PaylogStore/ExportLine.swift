import Foundation

/// One event of `paylog export` (JSON Lines): every envelope field, the payload in base64 and the chain hash.
/// Times are integer microseconds (exact), with an RFC 3339 copy for people. `paylog import-log` reads it back.
public struct ExportLine: Sendable, Hashable, Codable {
    /// Global position.
    public var position: UInt64
    /// Stream (payment) id.
    public var stream: String
    /// Version in the stream.
    public var version: UInt64
    /// Event id (UUID, lower case).
    public var id: String
    /// Event type.
    public var type: String
    /// Payload schema version.
    public var schemaVersion: UInt32
    /// Commit time, µs since the epoch.
    public var recordedAtUs: Int64
    /// Commit time, RFC 3339 (informational; `recorded_at_us` is authoritative).
    public var recordedAt: String
    /// Business time, µs since the epoch.
    public var observedAtUs: Int64?
    /// Correlation id.
    public var correlationID: String
    /// Causation id.
    public var causationID: String
    /// Actor.
    public var actor: String
    /// The tags the event's appender declared; absent when it declared none (every event recorded before log
    /// format 5).
    public var tags: [String]?
    /// The payload bytes, base64.
    public var payloadBase64: String
    /// The chain hash, lower-case hex.
    public var hash: String

    enum CodingKeys: String, CodingKey {
        case position, stream, version, id, type, actor, hash, tags
        case schemaVersion = "schema_version"
        case recordedAtUs = "recorded_at_us"
        case recordedAt = "recorded_at"
        case observedAtUs = "observed_at_us"
        case correlationID = "correlation_id"
        case causationID = "causation_id"
        case payloadBase64 = "payload_base64"
    }

    /// The export line of a recorded event (its payload decompressed: an export carries payloads as appended).
    /// - Throws: ``EventStoreError/corruptRecord(position:reason:)`` when a compressed payload is damaged.
    public init(_ event: RecordedEvent) throws(EventStoreError) {
        position = event.position
        stream = event.streamID
        version = event.version
        id = event.id.uuidString.lowercased()
        type = event.type
        schemaVersion = event.schemaVersion
        recordedAtUs = event.recordedAt.microseconds
        recordedAt = event.recordedAt.rfc3339
        observedAtUs = event.observedAt?.microseconds
        correlationID = event.correlationID
        causationID = event.causationID
        actor = event.actor
        tags = event.tags
        payloadBase64 = try event.payload.base64EncodedString()
        hash = event.hashHex
    }

    /// The recorded event this line describes, or a message saying which field is unusable. Refuses what an append
    /// refuses too (a stream id that cannot be a key) and a time paylog cannot record (``Timestamp/isRecordable``),
    /// which every reader would then have to print and subtract.
    public func recordedEvent() throws(EventStoreError) -> RecordedEvent {
        if let problem = EventStore.importProblem(streamID: stream, recordedAtUs: recordedAtUs, observedAtUs: observedAtUs) {
            throw .importMismatch(position: position, reason: problem)
        }
        guard let uuid = UUID(uuidString: id) else { throw .importMismatch(position: position, reason: "id \(id) is not a UUID") }
        guard let payload = Data(base64Encoded: payloadBase64) else {
            throw .importMismatch(position: position, reason: "payload_base64 is not base64")
        }
        guard let digest = ChainDigest(hex: hash) else {
            throw .importMismatch(position: position, reason: "hash is not 64 hexadecimal digits")
        }
        return RecordedEvent(
            id: uuid, streamID: stream, version: version, position: position, type: type, schemaVersion: schemaVersion,
            recordedAt: Timestamp(microseconds: recordedAtUs), observedAt: observedAtUs.map(Timestamp.init(microseconds:)),
            correlationID: correlationID, causationID: causationID, actor: actor, tags: tags, payload: payload, hash: digest)
    }
}
