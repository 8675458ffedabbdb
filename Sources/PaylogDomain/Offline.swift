/// `Offline`: a successful callback without a provider transaction id — the payment was taken offline and must be
/// reconciled against the provider's transaction report before `expiresAt`.
public struct Offline: Sendable, Hashable, Codable {
    /// The id the provider's report will carry (Square `client_transaction_id`).
    public var clientTransactionID: String
    /// When the provider drops an offline payment that was never uploaded (Square: 24 hours after the callback).
    public var expiresAtMicroseconds: Int64?

    /// An `Offline` event.
    public init(clientTransactionID: String, expiresAtMicroseconds: Int64?) {
        self.clientTransactionID = clientTransactionID
        self.expiresAtMicroseconds = expiresAtMicroseconds
    }
}
