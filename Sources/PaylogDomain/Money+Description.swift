extension Money: CustomStringConvertible {
    /// The decimal amount followed by the currency code, e.g. `"12.50 EUR"`.
    public var description: String { "\(decimalString) \(currency.code)" }
}
