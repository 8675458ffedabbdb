/// `Failed`: the payment did not (or, as far as we know, will not) go through.
public struct Failed: Sendable, Hashable, Codable {
    /// Who decided.
    public var source: FailureSource
    /// The provider's raw error code, kept even when unknown (Square `error_code`, SumUp `smp-status`, iZettle code).
    public var errorCode: String?
    /// A reason a person can read.
    public var reason: String
    /// True when the payment had already succeeded when this failure was recorded, but the failure was observed
    /// before the success (a till's timeout ingested after the callback that paid): the shop gave up before the
    /// success came. It is evidence and fails nothing; the success, observed after it, is late. Events recorded before
    /// this field existed read false (such a failure was refused then).
    public var observedBeforeSuccess: Bool
    /// True when the payment had already failed when this failure was observed (a till operator's cancellation after
    /// our timeout, say): it is evidence and fails nothing, and the first failure stands (its reason, its code).
    /// Events recorded before this field existed read false (such a failure appended nothing then).
    public var repeatsFailure: Bool

    /// A `Failed` event.
    public init(
        source: FailureSource, errorCode: String?, reason: String, observedBeforeSuccess: Bool = false,
        repeatsFailure: Bool = false
    ) {
        self.source = source
        self.errorCode = errorCode
        self.reason = reason
        self.observedBeforeSuccess = observedBeforeSuccess
        self.repeatsFailure = repeatsFailure
    }
}
