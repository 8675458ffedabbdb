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

    /// True for the same amount and the same transaction id byte for byte: provider ids are opaque, so two ids that
    /// are only canonically equivalent Unicode (as Swift's `String ==` has it) are two charges.
    public static func == (lhs: ReportedCharge, rhs: ReportedCharge) -> Bool {
        lhs.amount == rhs.amount && lhs.transactionID.utf8.elementsEqual(rhs.transactionID.utf8)
    }

    /// Hashes the amount and the transaction id's bytes, as ``==`` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(amount)
        for byte in transactionID.utf8 { hasher.combine(byte) }
    }
}
