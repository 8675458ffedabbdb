/// What a caller asks of a payment's state machine. ``Payment/decide(_:at:)`` turns it into events.
public enum PaymentCommand: Sendable, Hashable {
    /// Record a launch URL, built by paylog or observed.
    case request(LaunchRequest, builtByPaylog: Bool)
    /// Record that the shop's app switched to the provider's app.
    case switchApp(note: String)
    /// Record a callback.
    case receiveCallback(CallbackOutcome)
    /// Match a provider report line (already routed to this payment by `matchedBy`).
    case reconcile(ReconciliationLine, matchedBy: String)
    /// Give up on the payment.
    case fail(reason: String)
    /// Fail the payment if it is offline and its reconciliation window closed before `nowMicroseconds`.
    case expire(nowMicroseconds: Int64)
}
