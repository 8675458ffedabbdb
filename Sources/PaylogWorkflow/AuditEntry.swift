import PaylogCompatibility
import PaylogDomain
import PaylogStore

/// One line of a payment's audit timeline: the event, its raw evidence, how it reads, what the checker found,
/// and the payment's state after it.
public struct AuditEntry: Sendable, Hashable {
    /// The event as stored (position, version, type, times, actor, hash).
    public var event: RecordedEvent
    /// The event decoded.
    public var decoded: PaymentEvent
    /// The raw evidence: launch URL, callback URL, report line, the note an app switch was recorded with, or a
    /// failure's reason (an expiry's with its window's end as a time).
    public var evidence: String?
    /// Every field of the evidence as today's adapters read it.
    public var reading: [String: String]?
    /// Flags a person should see (late, contradicting, amount mismatch…).
    public var notes: [String]
    /// Compatibility findings for this event.
    public var findings: [Finding]
    /// The payment after this event.
    public var state: Payment
}
