/// A validated ISO 4217 alphabetic currency code together with its minor-unit exponent.
///
/// Validation checks the form (exactly three uppercase ASCII letters), not membership in the ISO list:
/// the log must be able to hold a code that a provider sent even when it is not a current currency.
/// The exponent comes from ISO 4217 for currencies whose minor unit is not two digits, and is 2 otherwise.
public struct CurrencyCode: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The three-letter code, e.g. `"EUR"`.
    public let code: String

    /// Creates a currency code after checking that `code` is three uppercase ASCII letters.
    ///
    /// - Throws: ``DomainError/invalidCurrencyCode(_:)`` for anything else; lowercase is not folded.
    public init(_ code: String) throws(DomainError) {
        let scalars = code.unicodeScalars
        guard scalars.count == 3, scalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
            throw .invalidCurrencyCode(code)
        }
        self.code = code
    }

    /// The number of decimal digits of the minor unit: 0 for JPY, 2 for EUR, 3 for KWD.
    public var minorUnitExponent: Int {
        if Self.zeroDigitCodes.contains(code) { return 0 }
        if Self.threeDigitCodes.contains(code) { return 3 }
        if Self.fourDigitCodes.contains(code) { return 4 }
        return 2
    }

    /// The code itself.
    public var description: String { code }

    /// Decodes a currency code from a single string, validating it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes the currency code as a single string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }

    private static let zeroDigitCodes: Set<String> = [
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF",
        "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF",
    ]
    private static let threeDigitCodes: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]
    private static let fourDigitCodes: Set<String> = ["CLF", "UYW"]
}
