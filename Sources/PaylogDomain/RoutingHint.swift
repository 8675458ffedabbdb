/// How a callback can be matched to the payment that launched it.
public enum RoutingHint: Sendable, Hashable, Codable {
    /// The `paylog_payment` item our builder put on the callback URL.
    case paymentID(PaymentID)
    /// No `paylog_payment` item: the provider's echo of the request's reference
    /// (Square `state`, SumUp `foreign-tx-id`, iZettle `reference`).
    case reference(String)
}
