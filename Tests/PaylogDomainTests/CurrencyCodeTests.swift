import Foundation
import PaylogDomain
import PropertyBased
import Testing

@Suite("CurrencyCode")
struct CurrencyCodeTests {
    @Test("accepts three uppercase ASCII letters", arguments: ["EUR", "USD", "JPY", "KWD", "XTS", "ZZZ"])
    func acceptsUppercaseCodes(_ text: String) throws {
        let code = try CurrencyCode(text)
        #expect(code.code == text)
        #expect(code.description == text)
    }

    @Test(
        "rejects anything else",
        arguments: ["", "EU", "EURO", "eur", "Eur", "E1R", "ÉUR", "EU ", " EUR", "E\u{0}R", "ＥＵＲ"])
    func rejectsMalformedCodes(_ text: String) {
        #expect(throws: DomainError.invalidCurrencyCode(text)) { try CurrencyCode(text) }
    }

    @Test(
        "knows the ISO 4217 minor-unit exponents",
        arguments: [
            ("JPY", 0), ("KRW", 0), ("ISK", 0), ("CLP", 0), ("VND", 0), ("XOF", 0), ("XAF", 0),
            ("HUF", 2), ("EUR", 2), ("USD", 2), ("GBP", 2), ("SEK", 2), ("XTS", 2),
            ("BHD", 3), ("KWD", 3), ("OMR", 3), ("JOD", 3), ("TND", 3), ("IQD", 3), ("LYD", 3),
            ("CLF", 4),
        ])
    func exponent(_ text: String, _ expected: Int) throws {
        #expect(try CurrencyCode(text).minorUnitExponent == expected)
    }

    @Test("the named constants are the codes they say")
    func constants() {
        #expect(CurrencyCode.eur.code == "EUR")
        #expect(CurrencyCode.jpy.minorUnitExponent == 0)
        #expect(CurrencyCode.kwd.minorUnitExponent == 3)
    }

    @Test("encodes as a bare JSON string and validates when decoding")
    func codable() throws {
        let data = try JSONEncoder().encode([CurrencyCode.sek])
        #expect(String(decoding: data, as: UTF8.self) == #"["SEK"]"#)
        #expect(try JSONDecoder().decode([CurrencyCode].self, from: data) == [.sek])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([CurrencyCode].self, from: Data(#"["sek"]"#.utf8))
        }
    }

    @Test("any string is either a valid code of three letters A–Z or refused")
    func arbitraryStrings() async {
        await propertyCheck(input: Gen.latin1.string(of: 0...5)) { text in
            let isWellFormed =
                text.unicodeScalars.count == 3
                && text.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isUppercase }
            #expect(((try? CurrencyCode(text)) != nil) == isWellFormed)
        }
    }
}
