import PaylogDomain
import PaylogStore

/// One event of a payment's history and the payment's state right after it.
public struct HistoryStep: Sendable, Hashable {
    /// The event as stored.
    public var event: RecordedEvent
    /// The event decoded.
    public var decoded: PaymentEvent
    /// The payment as it stood after this event.
    public var state: Payment
}
