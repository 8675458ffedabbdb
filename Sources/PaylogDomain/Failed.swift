/// `Failed`: the payment did not (or, as far as we know, will not) go through.
public struct Failed: Sendable, Hashable, Codable {
    /// Who decided.
    public var source: FailureSource
    /// The provider's raw error code, kept even when unknown (Square `error_code`, SumUp `smp-status`, iZettle code).
    public var errorCode: String?
    /// A reason a person can read.
    public var reason: String

    /// A `Failed` event.
    public init(source: FailureSource, errorCode: String?, reason: String) {
        self.source = source
        self.errorCode = errorCode
        self.reason = reason
    }
}
