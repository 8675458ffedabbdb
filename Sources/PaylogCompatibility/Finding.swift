/// One rule's verdict on one recorded request or callback.
///
/// Encodes as JSON with the keys `payment`, `position`, `severity`, `basis`, `rule`, `message`.
public struct Finding: Sendable, Hashable, Codable {
    /// The payment the judged record belongs to.
    public var payment: String
    /// The log position of the judged record.
    public var position: UInt64
    /// How serious the finding is (the rule's severity).
    public var severity: Severity
    /// Whether the finding rests on confirmed contract facts only or on an inferred one (the rule's basis).
    public var basis: Basis
    /// The id of the rule that fired, as listed in ``CompatibilityChecker/rules``.
    public var rule: String
    /// What was observed and what the contract says, naming the field and the version.
    public var message: String

    /// Creates a finding.
    public init(payment: String, position: UInt64, severity: Severity, basis: Basis, rule: String, message: String) {
        self.payment = payment
        self.position = position
        self.severity = severity
        self.basis = basis
        self.rule = rule
        self.message = message
    }
}
