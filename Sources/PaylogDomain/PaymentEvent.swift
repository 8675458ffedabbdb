/// One of the six events of a payment's stream.
public enum PaymentEvent: Sendable, Hashable, Codable {
    /// A launch URL was built or observed.
    case requested(Requested)
    /// The shop's app switched to the provider's app.
    case appSwitched(AppSwitched)
    /// A callback came back.
    case callbackReceived(CallbackReceived)
    /// A successful payment was taken offline and awaits reconciliation.
    case offline(Offline)
    /// The provider's report lists the payment.
    case reconciled(Reconciled)
    /// The payment failed.
    case failed(Failed)

    /// The event type name stored in the log.
    public var typeName: String { kind.typeName }

    /// The event's kind, without its fields.
    public var kind: PaymentEventKind {
        switch self {
        case .requested: return .requested
        case .appSwitched: return .appSwitched
        case .callbackReceived: return .callbackReceived
        case .offline: return .offline
        case .reconciled: return .reconciled
        case .failed: return .failed
        }
    }
}
