import Foundation

/// An event as stored: the caller's ``NewEvent`` fields plus the envelope the store assigned.
public struct RecordedEvent: Sendable, Hashable {
    /// The event's unique id.
    public var id: UUID
    /// The stream the event belongs to.
    public var streamID: String
    /// 1-based, gap-free position within the stream.
    public var version: UInt64
    /// 1-based, gap-free position in the whole log, in commit order.
    public var position: UInt64
    /// The event type name.
    public var type: String
    /// The version of the payload schema for `type`.
    public var schemaVersion: UInt32
    /// When the store committed the event (UTC).
    public var recordedAt: Timestamp
    /// Business time supplied by the caller, if any.
    public var observedAt: Timestamp?
    /// The correlation id, empty when none was supplied.
    public var correlationID: String
    /// The causation id, empty when none was supplied.
    public var causationID: String
    /// Who recorded the event, empty when not supplied.
    public var actor: String
    /// The tags its appender declared (``NewEvent/tags``); nil when it declared none (every event recorded before
    /// log format 5).
    public var tags: [String]? {
        get { storedTags.tags }
        set { storedTags = StoredTags(newValue) }
    }
    /// True when its appender declared its tags (perhaps none): ``tags`` is not nil. Reads no tag.
    public var declaresTags: Bool { storedTags.areDeclared }
    /// The tags as the store keeps them (read when asked for).
    var storedTags: StoredTags
    /// The encoded payload as the store keeps it (possibly compressed); ``payload`` gives the bytes.
    public var storedPayload: StoredPayload
    /// SHA-256 over the previous event's hash and this event's record bytes, with the payload as appended
    /// (not as compressed: see Docs/storage.md).
    public var hash: ChainDigest

    /// The encoded payload, exactly as appended: decompressed here when the store keeps it compressed.
    /// - Throws: ``EventStoreError/corruptRecord(position:reason:)`` when a compressed payload's bytes are damaged.
    public var payload: Data {
        get throws(EventStoreError) {
            do {
                return try storedPayload.bytes()
            } catch {
                throw .corruptRecord(position: position, reason: "its compressed payload is damaged: \(error.description)")
            }
        }
    }

    /// The payload's size in bytes, without decompressing it.
    public var payloadByteCount: Int { storedPayload.byteCount }

    /// An event with every field given; `payload` is stored as given.
    init(
        id: UUID, streamID: String, version: UInt64, position: UInt64, type: String, schemaVersion: UInt32,
        recordedAt: Timestamp, observedAt: Timestamp?, correlationID: String, causationID: String, actor: String,
        tags: [String]? = nil, payload: Data, hash: ChainDigest
    ) {
        self.init(
            id: id, streamID: streamID, version: version, position: position, type: type, schemaVersion: schemaVersion,
            recordedAt: recordedAt, observedAt: observedAt, correlationID: correlationID, causationID: causationID,
            actor: actor, tags: tags, storedPayload: StoredPayload(payload), hash: hash)
    }

    /// An event with every field given, its payload as stored.
    init(
        id: UUID, streamID: String, version: UInt64, position: UInt64, type: String, schemaVersion: UInt32,
        recordedAt: Timestamp, observedAt: Timestamp?, correlationID: String, causationID: String, actor: String,
        tags: [String]? = nil, storedPayload: StoredPayload, hash: ChainDigest
    ) {
        self.init(
            id: id, streamID: streamID, version: version, position: position, type: type, schemaVersion: schemaVersion,
            recordedAt: recordedAt, observedAt: observedAt, correlationID: correlationID, causationID: causationID,
            actor: actor, storedTags: StoredTags(tags), storedPayload: storedPayload, hash: hash)
    }

    /// An event with every field given, its tags and payload as stored.
    init(
        id: UUID, streamID: String, version: UInt64, position: UInt64, type: String, schemaVersion: UInt32,
        recordedAt: Timestamp, observedAt: Timestamp?, correlationID: String, causationID: String, actor: String,
        storedTags: StoredTags, storedPayload: StoredPayload, hash: ChainDigest
    ) {
        self.id = id
        self.streamID = streamID
        self.version = version
        self.position = position
        self.type = type
        self.schemaVersion = schemaVersion
        self.recordedAt = recordedAt
        self.observedAt = observedAt
        self.correlationID = correlationID
        self.causationID = causationID
        self.actor = actor
        self.storedTags = storedTags
        self.storedPayload = storedPayload
        self.hash = hash
    }

    /// The hash in lower-case hexadecimal.
    public var hashHex: String { hash.hex }
}
