/// Who decided a payment failed.
public enum FailureSource: String, Sendable, Hashable, Codable {
    /// The provider's callback reported an error.
    case provider
    /// An operator or the shop's app gave up (e.g. a timeout).
    case operator_ = "operator"
    /// `paylog expire`: an offline payment was not reconciled within the provider's window.
    case expiry
}
