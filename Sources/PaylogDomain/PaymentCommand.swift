/// What a caller asks of a payment's state machine. ``Payment/decide(_:at:)`` turns it into events.
public enum PaymentCommand: Sendable, Hashable {
    /// Record a launch URL, built by paylog or observed.
    case request(LaunchRequest, builtByPaylog: Bool)
    /// Record that the shop's app switched to the provider's app.
    case switchApp(note: String)
    /// Record a callback.
    case receiveCallback(CallbackOutcome)
    /// Match a provider report line (already routed to this payment by `matchedBy`). `attemptAmount`: what the
    /// attempt the line matched requested, when the caller knows it (a retried payment's line matched by an
    /// attempt's reference, or by an id that attempt's callback returned); nil: the payment's latest request is the
    /// one to compare the report's amount with.
    case reconcile(ReconciliationLine, matchedBy: String, attemptAmount: Money? = nil)
    /// Give up on the payment.
    case fail(reason: String)
    /// Fail the payment if it is offline and its reconciliation window closed before `nowMicroseconds`.
    case expire(nowMicroseconds: Int64)
}
