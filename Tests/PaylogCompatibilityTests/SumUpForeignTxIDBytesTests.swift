import PaylogCompatibility
import PaylogDomain
import Testing

/// A `foreign-tx-id` whose percent-escapes are not UTF-8 is recorded still encoded; the app receives the bytes,
/// so the printable-ASCII and length rules judge those, not the escape text.
@Suite("SumUp foreign-tx-id judged by the bytes the app receives")
struct SumUpForeignTxIDBytesTests {
    static func launch(_ encodedValue: String) -> String {
        F.sumUpLaunch([("foreign-tx-id", nil)]) + "&foreign-tx-id=" + encodedValue
    }

    func findings(_ encodedValue: String) throws -> [Finding] {
        try Subject.request(Self.launch(encodedValue), app: "1.60").findings()
    }

    @Test("a byte that is not UTF-8 text is not printable ASCII, as é is not")
    func notUTF8IsNotPrintable() throws {
        let raw = try findings("ab%FF")
        let finding = try #require(raw.first { $0.rule == "sumup.request.foreign-tx-id-not-printable" })
        #expect(finding.message.contains("byte 0xFF"))
        #expect(raw.contains { $0.rule == "url.undecodable-percent-encoding" })
        let accented = try findings("caf%C3%A9")
        #expect(accented.first { $0.rule == "sumup.request.foreign-tx-id-not-printable" }?.message.contains("U+E9") == true)
        #expect(try !findings("abc").contains { $0.rule == "sumup.request.foreign-tx-id-not-printable" })
    }

    @Test("its length counts bytes, not the characters of their escapes")
    func lengthInBytes() throws {
        let fifty = try findings(String(repeating: "%E9", count: 50))
        #expect(!fifty.contains { $0.rule == "sumup.request.foreign-tx-id-too-long" }, "50 bytes, not 150 characters")
        let long = try findings(String(repeating: "%E9", count: 129))
        let finding = try #require(long.first { $0.rule == "sumup.request.foreign-tx-id-too-long" })
        #expect(finding.message.contains("of 129 bytes"))
    }

    @Test("an escaped space among bytes that are not UTF-8 is still a space")
    func spaceAmongBytes() throws {
        #expect(try findings("a%20%FF").contains { $0.rule == "sumup.request.foreign-tx-id-space" })
    }
}
