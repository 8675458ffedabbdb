/// Query items our builder adds to callback URLs so a callback can be routed and classified.
public enum CallbackMarkers {
    /// Carries the ``PaylogDomain/PaymentID`` on every callback URL: `paylog_payment=<id>`.
    public static let paymentID = "paylog_payment"
    /// On SumUp and iZettle success and failure URLs: `paylog_outcome=success` or `paylog_outcome=failure`.
    public static let outcome = "paylog_outcome"
    /// The ``outcome`` value on success URLs.
    public static let success = "success"
    /// The ``outcome`` value on failure URLs.
    public static let failure = "failure"
}
