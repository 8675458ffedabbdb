import Foundation

/// An event to append: everything the caller supplies. The store adds the stream, version, position,
/// recorded-at time and hash.
public struct NewEvent: Sendable, Hashable {
    /// The event's unique id. Appending an id that is already stored is idempotent (see ``EventStore/append(_:to:expecting:)``).
    public var id: UUID
    /// The event type name, e.g. `CallbackReceived`.
    public var type: String
    /// The version of the payload schema for `type`.
    public var schemaVersion: UInt32
    /// The encoded payload.
    public var payload: Data
    /// Business time: when the fact was observed, if the caller knows.
    public var observedAt: Timestamp?
    /// Ties the events of one request together.
    public var correlationID: String
    /// What caused the event.
    public var causationID: String
    /// Who recorded the event.
    public var actor: String
    /// The keys the appender declares for the event, which the store indexes (``EventStore/taggedStream(_:)``):
    /// each tag then names this event's stream until a later event declares it. Each is 1–480 bytes of UTF-8.
    /// `nil` declares nothing: the record says so, and readers that need such an event's keys derive them
    /// (paylog's status view derives routing keys from the payload). `[]` declares that it has none.
    public var tags: [String]?

    /// An event with the given fields; ids and metadata default to a fresh UUID and empty strings.
    public init(
        id: UUID = UUID(), type: String, schemaVersion: UInt32 = 1, payload: Data,
        observedAt: Timestamp? = nil, correlationID: String = "", causationID: String = "", actor: String = "",
        tags: [String]? = nil
    ) {
        self.id = id
        self.type = type
        self.schemaVersion = schemaVersion
        self.payload = payload
        self.observedAt = observedAt
        self.correlationID = correlationID
        self.causationID = causationID
        self.actor = actor
        self.tags = tags
    }
}
