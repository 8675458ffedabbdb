import Foundation
import PaylogDomain
import Testing

/// What a payment keeps of each callback: the SHA-256 of its raw URL.
@Suite("Callback fingerprint")
struct CallbackFingerprintTests {
    @Test("it is the SHA-256 of the URL's UTF-8 bytes (FIPS 180-2 test vectors)")
    func sha256() {
        #expect(CallbackFingerprint(rawURL: "abc").hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(CallbackFingerprint(rawURL: "").hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(CallbackFingerprint(rawURL: "abc").bytes.count == CallbackFingerprint.byteCount)
    }

    @Test("the fingerprint of a URL's bytes where they lie is the fingerprint of the URL, ASCII or not, empty too")
    func fromBytes() {
        for url in ["abc", "", "myshop://cb?status=ok€", "sumupmerchant://cb?smp-status=success&note=Café"] {
            var text = url
            let fromBytes = text.withUTF8 { CallbackFingerprint(rawURLBytes: UnsafeRawBufferPointer($0)) }
            #expect(fromBytes == CallbackFingerprint(rawURL: url))
        }
        #expect(Array("abc".utf8).withUnsafeBytes(CallbackFingerprint.init(rawURLBytes:)).hex
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("URLs that differ anywhere, even in percent-encoding's case or one trailing byte, differ")
    func distinct() {
        let urls = [
            "myshop://cb?data=%7B%22status%22%3A%22ok%22%7D", "myshop://cb?data=%7b%22status%22%3a%22ok%22%7d",
            "myshop://cb?data=%7B%22status%22%3A%22ok%22%7D&", "myshop://cb?data=%7B%22status%22%3A%22ok%22%7D ",
            "myshop://cb?status=ok€", "myshop://cb?status=ok",
        ]
        let fingerprints = urls.map(CallbackFingerprint.init(rawURL:))
        #expect(Set(fingerprints).count == urls.count)
        #expect(CallbackFingerprint(rawURL: urls[0]) == fingerprints[0])
    }

    @Test("bytes and JSON round-trip; a wrong length or a non-hex text is refused")
    func roundTrip() throws {
        let fingerprint = CallbackFingerprint(rawURL: "sumupmerchant://result?smp-status=success")
        #expect(fingerprint.bytes.withUnsafeBytes { CallbackFingerprint(bytes: $0) } == fingerprint)
        #expect(Array(fingerprint.bytes.prefix(31)).withUnsafeBytes { CallbackFingerprint(bytes: $0) } == nil)
        let json = try JSONEncoder().encode([fingerprint])
        #expect(String(decoding: json, as: UTF8.self) == "[\"\(fingerprint.hex)\"]")
        #expect(try JSONDecoder().decode([CallbackFingerprint].self, from: json) == [fingerprint])
        let upper = Data("[\"\(fingerprint.hex.uppercased())\"]".utf8)
        #expect(try JSONDecoder().decode([CallbackFingerprint].self, from: upper) == [fingerprint])
        for bad in ["[\"\(fingerprint.hex.dropLast())\"]", "[\"\(fingerprint.hex.dropLast())g\"]", "[\"\"]", "[42]"] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode([CallbackFingerprint].self, from: Data(bad.utf8)) }
        }
    }
}
