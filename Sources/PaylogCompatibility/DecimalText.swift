/// A plain decimal number as text: `-?[0-9]+([.,][0-9]+)?`, read without converting it.
struct DecimalText: Sendable, Hashable {
    /// Whether it starts with `-`.
    let isNegative: Bool
    /// The digits before the separator.
    let integerDigits: String
    /// The separator, `.` or `,`; `nil` when there is no fraction.
    let separator: Character?
    /// The digits after the separator.
    let fractionDigits: String

    /// Reads `text`; `nil` when it is not of the form above (no grouping, sign `+`, exponent or spaces).
    init?(_ text: String) {
        var rest = Substring(text)
        isNegative = rest.first == "-"
        if isNegative { rest = rest.dropFirst() }
        let integer = rest.prefix { $0.isASCII && $0.isNumber }
        rest = rest.dropFirst(integer.count)
        guard !integer.isEmpty else { return nil }
        if let first = rest.first {
            guard first == "." || first == "," else { return nil }
            let fraction = rest.dropFirst()
            guard !fraction.isEmpty, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            separator = first
            fractionDigits = String(fraction)
        } else {
            separator = nil
            fractionDigits = ""
        }
        integerDigits = String(integer)
    }

    /// Whether it is a whole number without a separator.
    var isInteger: Bool { separator == nil }

    /// Whether its value is greater than zero.
    var isPositive: Bool {
        !isNegative && (integerDigits.contains { $0 != "0" } || fractionDigits.contains { $0 != "0" })
    }
}
