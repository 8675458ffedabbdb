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
    /// The raw evidence: launch URL, callback URL, report line, or the note an app switch was recorded with.
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
