/// What recording a payment request built by paylog gave: the launch URL to open and the routing reference in it.
public struct LaunchOutcome: Sendable, Hashable {
    /// The recorded outcome (the payment's state after `Requested`).
    public var outcome: RecordOutcome
    /// The launch URL, exactly as recorded in `Requested`.
    public var launchURL: String
    /// The routing reference carried by the URL (Square `state`, SumUp `foreign-tx-id`, iZettle `reference`); nil
    /// when the app is too old to take one (SumUp below 1.53), whose callbacks are routed by the `paylog_payment`
    /// marker on the callback URLs.
    public var reference: String?
}
