/// An exact amount of money: a whole number of minor units of one currency.
///
/// `Money(minorUnits: 1250, currency: .eur)` is €12.50; `Money(minorUnits: 500, currency: .jpy)` is ¥500.
/// There is no floating point anywhere: conversions to and from decimal text are digit-exact
/// (see ``init(decimalString:currency:)`` and ``decimalString``).
public struct Money: Sendable, Hashable, Codable {
    /// The amount in the currency's smallest unit (cents for EUR, yen for JPY, fils for KWD).
    public var minorUnits: Int64
    /// The currency the amount is counted in.
    public var currency: CurrencyCode

    /// Creates an amount from a count of minor units.
    public init(minorUnits: Int64, currency: CurrencyCode) {
        self.minorUnits = minorUnits
        self.currency = currency
    }
}
