/// A stored payment in the status view did not decode: the view is damaged or was written by another build.
/// The view is rebuildable from the log: run `paylog rebuild-views`.
public struct PaymentCodecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong with the bytes.
    public var reason: String

    /// An error with `reason`.
    public init(reason: String) {
        self.reason = reason
    }

    /// The reason and what to do.
    public var description: String {
        "a payment in the status view does not decode (\(reason)); rebuild the views with `paylog rebuild-views`"
    }
}
