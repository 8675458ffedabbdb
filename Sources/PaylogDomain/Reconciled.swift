/// `Reconciled`: a line of the provider's transaction report was matched to the payment.
public struct Reconciled: Sendable, Hashable, Codable {
    /// The report line as received (JSON text): the evidence.
    public var reportLine: String
    /// The provider's transaction id on the report.
    public var transactionID: String
    /// How the line was matched: `client_transaction_id`, `foreign_tx_id`, `transaction_code` or `reference`.
    public var matchedBy: String
    /// The amount on the report line, when given.
    public var amount: Money?
    /// True when the report's amount or currency differs from the requested one.
    public var amountMismatch: Bool

    /// Whether the line reports money taken: its amount is positive, or it gives none. A line with a negative or zero
    /// amount (a refund, a reversal, an error in the report) is recorded as evidence and reconciles nothing.
    public var reportsCharge: Bool { Reconciled.reportsCharge(amount) }

    /// Whether a report line of `amount` (nil: none given) reports money taken: see ``reportsCharge``.
    public static func reportsCharge(_ amount: Money?) -> Bool { amount.map { $0.minorUnits > 0 } ?? true }

    /// A `Reconciled` event.
    public init(reportLine: String, transactionID: String, matchedBy: String, amount: Money?, amountMismatch: Bool) {
        self.reportLine = reportLine
        self.transactionID = transactionID
        self.matchedBy = matchedBy
        self.amount = amount
        self.amountMismatch = amountMismatch
    }
}
