import Crypto

extension CallbackFingerprint {
    /// The fingerprint a payment keeps of a recorded report line: the SHA-256 of the provider's transaction id and
    /// the reported amount (minor units and currency), not of the line's text. The same report row wrapped another
    /// way — with or without `"kind":"reconcile"`, observed at another time, its JSON keys reordered — is the same
    /// evidence and gets the same fingerprint; another amount for the transaction does not.
    public init(reportedTransaction transactionID: String, amount: Money?) {
        var text = transactionID
        text.append("\u{0}")
        if let amount { text.append("\(amount.minorUnits)\u{0}\(amount.currency.code)") }
        self.init(rawURL: text)
    }
}
