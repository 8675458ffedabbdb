/// One line of a provider's transaction report, as `paylog reconcile` and `kind: reconcile` observations give it.
public struct ReconciliationLine: Sendable, Hashable, Codable {
    /// The provider whose report it is.
    public var provider: Provider
    /// The provider's transaction id (Square payment id, SumUp transaction id, iZettle purchase id).
    public var transactionID: String
    /// Square: the `client_id` of the transaction, equal to the callback's `client_transaction_id`.
    public var clientTransactionID: String?
    /// SumUp: the `foreign-tx-id` the request carried.
    public var foreignTransactionID: String?
    /// SumUp: the transaction code (`smp-tx-code` on the callback).
    public var transactionCode: String?
    /// iZettle: the request's `reference`.
    public var reference: String?
    /// The amount on the report, when given.
    public var amount: Money?
    /// The line exactly as received: the evidence.
    public var rawLine: String
    /// The payment someone matched the line to by hand, when its keys name no recorded payment (a Square payment
    /// whose callback was lost: paylog never learned its `client_transaction_id`); nil for a line matched by its keys.
    public var payment: String?

    /// A report line.
    public init(
        provider: Provider, transactionID: String, clientTransactionID: String? = nil, foreignTransactionID: String? = nil,
        transactionCode: String? = nil, reference: String? = nil, amount: Money? = nil, rawLine: String,
        payment: String? = nil
    ) {
        self.provider = provider
        self.transactionID = transactionID
        self.clientTransactionID = clientTransactionID
        self.foreignTransactionID = foreignTransactionID
        self.transactionCode = transactionCode
        self.reference = reference
        self.amount = amount
        self.rawLine = rawLine
        self.payment = payment
    }

    /// The keys this line can be matched by, most specific first: (`matched_by` name, value).
    public var matchKeys: [(name: String, value: String)] {
        var keys: [(String, String)] = []
        switch provider {
        case .square:
            if let clientTransactionID { keys.append(("client_transaction_id", clientTransactionID)) }
        case .sumup:
            if let foreignTransactionID { keys.append(("foreign_tx_id", foreignTransactionID)) }
            if let transactionCode { keys.append(("transaction_code", transactionCode)) }
        case .izettle:
            if let reference { keys.append(("reference", reference)) }
        }
        return keys
    }
}
