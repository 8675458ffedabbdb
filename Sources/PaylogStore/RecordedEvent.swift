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
    /// The encoded payload.
    public var payload: Data
    /// SHA-256 over the previous event's hash and this event's stored record bytes.
    public var hash: ChainDigest

    /// The hash in lower-case hexadecimal.
    public var hashHex: String { hash.hex }
}
