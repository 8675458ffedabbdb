import Foundation
import PaylogDomain
import PropertyBased
import Testing

@Suite("PaymentID")
struct PaymentIDTests {
    @Test(
        "accepts printable ASCII without spaces",
        arguments: ["p", "pay_01HZX9", "a-b.c~d!*'()", String(repeating: "x", count: 128)])
    func accepts(_ text: String) throws {
        #expect(try PaymentID(text).rawValue == text)
    }

    @Test(
        "rejects empty, too long, spaces, controls and non-ASCII",
        arguments: ["", String(repeating: "x", count: 129), "a b", "a\tb", "a\u{7F}", "é", "a\u{0}", ".", ".."])
    func rejects(_ text: String) {
        #expect(throws: DomainError.self) { try PaymentID(text) }
    }

    @Test("the error names the value and the rule")
    func errorDescription() {
        do {
            _ = try PaymentID("a b")
            Issue.record("expected a refusal")
        } catch {
            #expect(error.description.contains("\"a b\""))
            #expect(error.description.contains("U+20"))
            #expect(error.description.contains("without spaces"))
        }
    }

    @Test("round-trips through JSON and refuses invalid JSON input")
    func codable() throws {
        let id = try PaymentID("pay-42")
        let data = try JSONEncoder().encode(id)
        #expect(String(decoding: data, as: UTF8.self) == #""pay-42""#)
        #expect(try JSONDecoder().decode(PaymentID.self, from: data) == id)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PaymentID.self, from: Data(#""""#.utf8)) }
    }

    @Test("validity matches the rule for arbitrary strings")
    func arbitrary() async {
        await propertyCheck(input: Gen.latin1.string(of: 0...140)) { text in
            let scalars = text.unicodeScalars
            let valid = !scalars.isEmpty && scalars.count <= 128 && scalars.allSatisfy { (0x21...0x7E).contains($0.value) }
                && text != "." && text != ".."
            #expect(((try? PaymentID(text)) != nil) == valid)
        }
    }
}
