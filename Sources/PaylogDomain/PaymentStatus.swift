/// Where a payment stands. See Docs/events.md for the state diagram.
public enum PaymentStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// A launch URL was built or observed; the provider's app has not been opened yet.
    case requested
    /// The point-of-sale app reported switching to the provider's app.
    case switched
    /// A successful callback came back with the provider's transaction id.
    case completed
    /// A successful offline payment (Square: `client_transaction_id` without `transaction_id`), awaiting reconciliation.
    case offline
    /// The provider's transaction report lists the payment.
    case reconciled
    /// The provider reported a failure, or we gave up (timeout, expiry).
    case failed
}
