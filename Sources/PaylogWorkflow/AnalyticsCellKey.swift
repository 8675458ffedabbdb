/// The grouping of the analytics view: UTC day of the first request × provider × currency.
public struct AnalyticsCellKey: Sendable, Hashable, Comparable {
    /// `YYYY-MM-DD` (UTC) of the payment's first request.
    public var day: String
    /// `square`, `sumup` or `izettle`.
    public var provider: String
    /// ISO 4217 code, or `?` when the request's amount could not be read.
    public var currency: String

    /// A cell key.
    public init(day: String, provider: String, currency: String) {
        self.day = day
        self.provider = provider
        self.currency = currency
    }

    /// Orders by day, provider, currency.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.day, lhs.provider, lhs.currency) < (rhs.day, rhs.provider, rhs.currency)
    }
}
