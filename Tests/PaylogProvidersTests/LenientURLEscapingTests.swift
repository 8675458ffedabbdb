import Foundation
import PaylogDomain
import Testing

@testable import PaylogProviders

/// A URL written with raw characters is read leniently: each raw character as itself, each `%XX` decoded once,
/// never twice escaped.
@Suite("Lenient URL reading")
struct LenientURLEscapingTests {
    @Test("only the bytes that must be escaped are, and valid %XX escapes are kept as written")
    func escapesOnlyWhatMust() {
        #expect(LenientURLEscaping.escape("myshop://ret?id=ord%2F1&m=Zahlung erfolgreich")
            == "myshop://ret?id=ord%2F1&m=Zahlung%20erfolgreich")
        #expect(LenientURLEscaping.escape("a://h?x=100%&y=%zz&z=%4") == "a://h?x=100%25&y=%25zz&z=%254")
        #expect(LenientURLEscaping.escape("a://h?n=Café{\"|\\}") == "a://h?n=Caf%C3%A9%7B%22%7C%5C%7D")
        #expect(LenientURLEscaping.escape("a://h?x=[1]#f#g") == "a://h?x=%5B1%5D#f%23g")
        #expect(LenientURLEscaping.escape("http://[::1]:8080/cb?x=[a b]") == "http://[::1]:8080/cb?x=%5Ba%20b%5D",
                "an IPv6 host keeps its brackets")
        #expect(LenientURLEscaping.escape("http://u@[::1]/cb?m=a b") == "http://u@[::1]/cb?m=a%20b")
        #expect(LenientURLEscaping.escape("myshop://ret[1]?m=a b") == "myshop://ret%5B1%5D?m=a%20b",
                "brackets that enclose no host are escaped, as before")
        #expect(LenientURLEscaping.escape("myshop://user[x]@ret?m=a b") == "myshop://user%5Bx%5D@ret?m=a%20b")
        let plain = "square-commerce-v1://payment/create?data=%7B%22a%22%3A1%7D&x=-._~:/?@!$&'()*+,;="
        #expect(LenientURLEscaping.escape(plain) == plain, "a URL that needs no escaping is unchanged")
    }

    @Test("an escaped value beside a raw space decodes once", arguments: [
        ("myshop://ret?smp-status=success&foreign-tx-id=ord%2F1&smp-message=Zahlung erfolgreich", "foreign-tx-id", "ord/1"),
        ("myshop://ret?smp-message=Zahlung erfolgreich&foreign-tx-id=ord%2F1", "foreign-tx-id", "ord/1"),
        ("myapp://cb?data=%7B%22notes%22%3A%22Caf%C3%A9 latte%22%7D", "data", #"{"notes":"Café latte"}"#),
        ("myapp://cb?data={%22a%22:%22x\\/y%22}", "data", #"{"a":"x\/y"}"#),
        ("myapp://cb?total=100%&ref=a%2Bb", "ref", "a+b"),
        ("myapp://cb?total=100%&ref=a%2Bb", "total", "100%"),
    ])
    func decodesOnce(_ url: String, _ name: String, _ expected: String) throws {
        let parsed = try ParsedURL(url)
        #expect(parsed.notes.contains(.lenientURLParsing))
        #expect(parsed.items.first { $0.name == name }?.value == expected, "\(parsed.items)")
    }

    @Test("a URL with an IPv6 host that must be read leniently keeps its host and port")
    func ipv6Host() throws {
        let parsed = try ParsedURL(#"http://[::1]:8080/v1/callbacks/square?data={%22status%22:%22ok%22}"#)
        #expect(parsed.host == "::1" || parsed.host == "[::1]", "\(String(describing: parsed.host))")
        #expect(parsed.items.first { $0.name == "data" }?.value == #"{"status":"ok"}"#)
        #expect(parsed.notes.contains(.lenientURLParsing))
    }

    @Test("a SumUp callback with a raw space routes by its echoed reference, decoded once")
    func sumUpEchoRoutes() throws {
        let url = "myshop://ret?smp-status=success&smp-tx-code=TX1&foreign-tx-id=ord%2F1&smp-message=Zahlung erfolgreich"
        let outcome = try Providers.parseCallback(url, provider: .sumup)
        #expect(outcome.reference == "ord/1" && outcome.routingHint == .reference("ord/1"))
        #expect(outcome.message == "Zahlung erfolgreich" && outcome.rawURL == url)
    }

    @Test("a Square callback whose data has a raw space beside escapes is read, not refused")
    func squareDataWithRawSpace() throws {
        let url = "myapp://cb?data=%7B%22status%22%3A%22ok%22%2C%22transaction_id%22%3A%22T1%22%2C%22client_transaction_id%22%3A%22C1%22%2C%22state%22%3A%22st-1%22%2C%22notes%22%3A%22Caf%C3%A9 latte%22%7D"
        let outcome = try Providers.parseCallback(url, provider: .square)
        #expect(outcome.status == .success && outcome.transactionID == "T1" && outcome.reference == "st-1")
        #expect(outcome.parseNotes.contains(.lenientURLParsing))
    }
}
