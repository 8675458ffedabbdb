import Foundation
import PaylogDomain
import PropertyBased
import Testing

@Suite("Money")
struct MoneyTests {
    static let currencies = ["EUR", "USD", "JPY", "KRW", "KWD", "BHD", "CLF", "HUF", "SEK"]

    @Test(
        "reads decimal strings exactly",
        arguments: [
            ("12.50", "EUR", Int64(1250)), ("12.5", "EUR", 1250), ("12", "EUR", 1200), ("0.05", "EUR", 5),
            ("-0.05", "EUR", -5), ("-0", "EUR", 0), ("007.10", "EUR", 710), ("12.500", "EUR", 1250),
            ("500", "JPY", 500), ("500.00", "JPY", 500), ("1.234", "KWD", 1234), ("1.2", "KWD", 1200),
            ("0.0001", "CLF", 1), ("92233720368547758.07", "EUR", Int64.max),
            ("-92233720368547758.08", "EUR", Int64.min), ("9223372036854775807", "JPY", Int64.max),
        ])
    func reads(_ text: String, _ code: String, _ minorUnits: Int64) throws {
        let currency = try CurrencyCode(code)
        #expect(try Money(decimalString: text, currency: currency) == Money(minorUnits: minorUnits, currency: currency))
    }

    @Test(
        "refuses text that is not a plain decimal",
        arguments: ["", "-", ".5", "5.", "1,00", "+1", " 1", "1 ", "1e3", "1.2.3", "١٢", "--1", "0x10", "1_000", "½"])
    func refusesMalformed(_ text: String) {
        #expect(throws: DomainError.invalidDecimalAmount(text)) { try Money(decimalString: text, currency: .eur) }
    }

    @Test(
        "refuses significant digits beyond the exponent instead of rounding",
        arguments: [("12.505", "EUR"), ("500.5", "JPY"), ("1.2345", "KWD"), ("0.001", "USD")])
    func refusesExtraDigits(_ text: String, _ code: String) throws {
        let currency = try CurrencyCode(code)
        #expect(throws: DomainError.tooManyFractionDigits(text, currency: currency)) {
            try Money(decimalString: text, currency: currency)
        }
    }

    @Test(
        "refuses amounts beyond Int64",
        arguments: ["92233720368547758.08", "-92233720368547758.09", "99999999999999999999999", "9223372036854775808"])
    func refusesOverflow(_ text: String) throws {
        let currency = text.contains(".") ? CurrencyCode.eur : CurrencyCode.jpy
        #expect(throws: DomainError.amountOutOfRange(text)) { try Money(decimalString: text, currency: currency) }
    }

    @Test(
        "writes exactly the exponent's fraction digits",
        arguments: [
            (Int64(1250), "EUR", "12.50"), (5, "EUR", "0.05"), (-5, "EUR", "-0.05"), (0, "EUR", "0.00"),
            (-1250, "EUR", "-12.50"), (500, "JPY", "500"), (-500, "JPY", "-500"), (1234, "KWD", "1.234"),
            (1, "CLF", "0.0001"), (Int64.min, "EUR", "-92233720368547758.08"),
            (Int64.max, "EUR", "92233720368547758.07"),
        ])
    func writes(_ minorUnits: Int64, _ code: String, _ expected: String) throws {
        let money = Money(minorUnits: minorUnits, currency: try CurrencyCode(code))
        #expect(money.decimalString == expected)
        #expect(money.description == "\(expected) \(code)")
    }

    @Test(
        "whole major units",
        arguments: [
            (Int64(1200), "EUR", true), (1250, "EUR", false), (7, "JPY", true), (1000, "KWD", true),
            (1001, "KWD", false), (-300, "EUR", true),
        ])
    func wholeMajorUnits(_ minorUnits: Int64, _ code: String, _ expected: Bool) throws {
        #expect(Money(minorUnits: minorUnits, currency: try CurrencyCode(code)).isWholeMajorUnits == expected)
    }

    @Test("decimalString → init(decimalString:) is the identity for every Int64 and currency")
    func roundTripFromMinorUnits() async {
        await propertyCheck(input: Gen.int64(), Gen<String?>.element(of: Self.currencies)) { units, code in
            let currency = try CurrencyCode(try #require(code))
            let money = Money(minorUnits: units, currency: currency)
            #expect(try Money(decimalString: money.decimalString, currency: currency) == money)
        }
    }

    @Test("reading a generated decimal gives the value its digits denote")
    func readsGeneratedDecimals() async {
        await propertyCheck(
            input: Gen.int64(in: 0...999_999_999_999), Gen.int(in: 0...4), Gen.bool,
            Gen<String?>.element(of: Self.currencies)
        ) { units, fractionLength, negative, code in
            let currency = try CurrencyCode(try #require(code))
            let exponent = currency.minorUnitExponent
            guard fractionLength <= exponent else { return }
            // Build the text independently: integer part, then `fractionLength` fraction digits.
            var scale: Int64 = 1
            for _ in 0..<exponent { scale *= 10 }
            var fractionScale: Int64 = 1
            for _ in 0..<(exponent - fractionLength) { fractionScale *= 10 }
            let value = units - units % fractionScale  // only digits expressible with fractionLength digits
            let integerPart = value / scale
            var text = (negative ? "-" : "") + String(integerPart)
            if fractionLength > 0 {
                let fraction = String(value % scale / fractionScale)
                text += "." + String(repeating: "0", count: fractionLength - fraction.count) + fraction
            }
            let money = try Money(decimalString: text, currency: currency)
            #expect(money.minorUnits == (negative ? -value : value))
        }
    }

    @Test("arbitrary text never crashes the reader: it yields money that reads back, or a DomainError")
    func arbitraryText() async {
        let alphabet = Array("0123456789.-+ e,") as [Character]
        let decimalish = Gen<Character?>.element(of: alphabet).map { $0! }.string(of: 0...30)
        await propertyCheck(input: decimalish) { text in try Self.checkReadable(text, currency: .eur) }
        await propertyCheck(input: Gen.latin1.string(of: 0...30)) { text in try Self.checkReadable(text, currency: .jpy)
        }
    }

    static func checkReadable(_ text: String, currency: CurrencyCode) throws {
        let money: Money
        do {
            money = try Money(decimalString: text, currency: currency)
        } catch {
            #expect(error.description.contains(text.debugDescription) || error.description.contains(currency.code))
            return
        }
        #expect(try Money(decimalString: money.decimalString, currency: currency) == money)
    }

    @Test("encodes minor units and currency")
    func codable() throws {
        let money = Money(minorUnits: 1250, currency: .eur)
        let data = try JSONEncoder().encode(money)
        #expect(try JSONDecoder().decode(Money.self, from: data) == money)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["currency"] as? String == "EUR")
    }
}
