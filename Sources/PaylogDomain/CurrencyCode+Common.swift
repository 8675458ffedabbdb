extension CurrencyCode {
    /// Euro.
    public static let eur = CurrencyCode(unchecked: "EUR")
    /// US dollar.
    public static let usd = CurrencyCode(unchecked: "USD")
    /// Pound sterling.
    public static let gbp = CurrencyCode(unchecked: "GBP")
    /// Swedish krona.
    public static let sek = CurrencyCode(unchecked: "SEK")
    /// Japanese yen (no minor unit).
    public static let jpy = CurrencyCode(unchecked: "JPY")
    /// Kuwaiti dinar (three-digit minor unit).
    public static let kwd = CurrencyCode(unchecked: "KWD")

    private init(unchecked code: String) {
        // The literals above are valid by inspection; a typo traps at first use in tests.
        guard let valid = try? CurrencyCode(code) else { preconditionFailure("invalid literal \(code)") }
        self = valid
    }
}
