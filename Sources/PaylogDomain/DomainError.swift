/// An error raised when a shared-kernel value cannot be built from its input.
///
/// Each description names the offending value, says what is wrong with it and what to do instead.
public enum DomainError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is not an uppercase ISO 4217 alpha-3 code.
    case invalidCurrencyCode(String)
    /// The text is not a plain decimal number (`-?[0-9]+(\.[0-9]+)?`).
    case invalidDecimalAmount(String)
    /// The amount has more significant fraction digits than the currency allows.
    case tooManyFractionDigits(String, currency: CurrencyCode)
    /// The amount does not fit into a 64-bit count of minor units.
    case amountOutOfRange(String)
    /// The payment identifier is empty, too long, or contains a character outside `!`…`~`.
    case invalidPaymentID(String, reason: String)

    /// A message saying what went wrong and what to do.
    public var description: String {
        switch self {
        case .invalidCurrencyCode(let text):
            return "currency code \(text.debugDescription) is not an ISO 4217 alpha-3 code; "
                + "use three uppercase letters A–Z such as \"EUR\""
        case .invalidDecimalAmount(let text):
            return "amount \(text.debugDescription) is not a plain decimal number; "
                + "use digits with an optional '.' fraction, e.g. \"12.50\""
        case .tooManyFractionDigits(let text, let currency):
            return "amount \(text.debugDescription) has more than \(currency.minorUnitExponent) significant "
                + "fraction digit(s), the minor-unit exponent of \(currency.code); round it to whole minor units"
        case .amountOutOfRange(let text):
            return "amount \(text.debugDescription) does not fit into a 64-bit count of minor units; "
                + "split the payment or check the input"
        case .invalidPaymentID(let text, let reason):
            return "payment id \(text.debugDescription) is invalid: \(reason); "
                + "use 1–\(PaymentID.maximumLength) printable ASCII characters without spaces, other than . and .."
        }
    }
}
