/// The events one recorded line appended to its payment's stream: which payment, and the stream versions they took.
/// A batch ingest hands these on (``PaymentWorkflow/ingest(lines:defaultKind:batchSize:appended:)``) so that a caller
/// can look at what was just recorded (`paylog serve` counts the compatibility findings on it) without the ingest
/// reading every payment back.
public struct AppendedEvents: Sendable, Hashable {
    /// The payment whose stream the events were appended to.
    public var paymentID: String
    /// The stream versions of the appended events, in order (never empty).
    public var versions: ClosedRange<UInt64>

    /// The events appended to `paymentID` at `versions`.
    public init(paymentID: String, versions: ClosedRange<UInt64>) {
        self.paymentID = paymentID
        self.versions = versions
    }
}
