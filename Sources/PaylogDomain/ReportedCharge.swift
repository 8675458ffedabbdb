/// What a payment keeps of a recorded report line: the provider's transaction id and the amount reported. The same
/// report row seen again, however it is wrapped (with or without `"kind"`, observed at another time, its keys in
/// another order), is the same charge and appends nothing; another amount for the transaction, or another
/// transaction, is recorded.
public struct ReportedCharge: Sendable, Hashable, Codable {
    /// The provider's transaction id on the report.
    public var transactionID: String
    /// The amount on the report, when given.
    public var amount: Money?

    /// The charge a report line reports.
    public init(transactionID: String, amount: Money?) {
        self.transactionID = transactionID
        self.amount = amount
    }
}
