/// What a provider callback says about the payment.
public enum CallbackStatus: Sendable, Hashable, Codable {
    /// The provider reports the payment as taken.
    case success
    /// The provider reports that no payment was taken (cancelled, declined, refused, …).
    case failure
    /// The status could not be read as success or failure; `raw` is the observed status value,
    /// empty when none was sent or (iZettle) nothing decided it.
    case invalid(String)
}
