import PaylogDomain

/// What recording one observation did.
public struct RecordOutcome: Sendable, Hashable {
    /// The payment the observation was recorded on.
    public var paymentID: String
    /// The events appended (empty when the observation was already recorded or changed nothing).
    public var eventsAppended: Int
    /// True when the exact same observation had been recorded before.
    public var wasAlreadyRecorded: Bool
    /// The payment after the observation.
    public var payment: Payment
}
