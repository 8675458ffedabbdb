extension Money {
    /// Reads a decimal string with a `.` separator, exactly.
    ///
    /// Accepted form: `-?[0-9]+(\.[0-9]+)?` — no grouping, no `+`, no exponent, no surrounding space.
    /// The fraction may be shorter than the currency's exponent (`"12.5"` EUR is 1250 minor units) and may be
    /// longer only by trailing zeros (`"12.500"` EUR is 1250; `"12.505"` EUR is refused, never rounded).
    ///
    /// - Throws: ``DomainError/invalidDecimalAmount(_:)``, ``DomainError/tooManyFractionDigits(_:currency:)``
    ///   or ``DomainError/amountOutOfRange(_:)``.
    public init(decimalString text: String, currency: CurrencyCode) throws(DomainError) {
        var scalars = Substring(text).unicodeScalars[...]
        let isNegative = scalars.first == "-"
        if isNegative { scalars = scalars.dropFirst() }
        let integerDigits = scalars.prefix { ("0"..."9").contains($0) }
        var rest = scalars.dropFirst(integerDigits.count)
        var fractionDigits = rest.prefix(0)
        if rest.first == "." {
            rest = rest.dropFirst()
            fractionDigits = rest.prefix { ("0"..."9").contains($0) }
            rest = rest.dropFirst(fractionDigits.count)
            guard !fractionDigits.isEmpty else { throw .invalidDecimalAmount(text) }
        }
        guard !integerDigits.isEmpty, rest.isEmpty else { throw .invalidDecimalAmount(text) }

        let exponent = currency.minorUnitExponent
        if fractionDigits.count > exponent {
            let excess = fractionDigits.dropFirst(exponent)
            guard excess.allSatisfy({ $0 == "0" }) else { throw .tooManyFractionDigits(text, currency: currency) }
            fractionDigits = fractionDigits.prefix(exponent)
        }
        let padding = exponent - fractionDigits.count

        var magnitude: UInt64 = 0
        func push(_ digit: UInt64) throws(DomainError) {
            let (shifted, overflowA) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(digit)
            guard !overflowA, !overflowB else { throw .amountOutOfRange(text) }
            magnitude = sum
        }
        for scalar in integerDigits { try push(UInt64(scalar.value - 48)) }
        for scalar in fractionDigits { try push(UInt64(scalar.value - 48)) }
        for _ in 0..<padding { try push(0) }

        let limit = isNegative ? Int64.min.magnitude : UInt64(Int64.max)
        guard magnitude <= limit else { throw .amountOutOfRange(text) }
        let value: Int64
        if isNegative {
            value = magnitude == Int64.min.magnitude ? Int64.min : -Int64(magnitude)
        } else {
            value = Int64(magnitude)
        }
        self.init(minorUnits: value, currency: currency)
    }

    /// The amount as a decimal string with exactly ``CurrencyCode/minorUnitExponent`` fraction digits.
    ///
    /// 1250 EUR is `"12.50"`, -5 EUR is `"-0.05"`, 500 JPY is `"500"`. Reading the result back with
    /// ``init(decimalString:currency:)`` gives the same value.
    public var decimalString: String {
        let exponent = currency.minorUnitExponent
        var digits = String(minorUnits.magnitude)
        let sign = minorUnits < 0 ? "-" : ""
        guard exponent > 0 else { return sign + digits }
        if digits.count <= exponent {
            digits = String(repeating: "0", count: exponent + 1 - digits.count) + digits
        }
        let split = digits.index(digits.endIndex, offsetBy: -exponent)
        return sign + digits[..<split] + "." + digits[split...]
    }

    /// Whether the amount is a whole number of major units (no fraction), e.g. 1200 EUR cents.
    public var isWholeMajorUnits: Bool {
        var scale: Int64 = 1
        for _ in 0..<currency.minorUnitExponent { scale *= 10 }
        return minorUnits % scale == 0
    }
}
