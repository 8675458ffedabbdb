import Foundation
import Testing

@testable import PaylogProviders

/// The plain-URL reader against Foundation's `URLComponents` (strict), the reference: whatever it accepts, it must
/// read exactly as Foundation does, and it must accept the URLs providers and shops really use.
@Suite("Plain URL reading")
struct PlainURLTests {
    /// Foundation's strict reading of `raw`, in ``PlainURL``'s terms; nil when Foundation refuses it.
    private static func foundation(_ raw: String) -> PlainURL? {
        guard let components = URLComponents(string: raw, encodingInvalidCharacters: false),
            let scheme = components.scheme, let host = components.host
        else { return nil }
        return PlainURL(
            scheme: scheme, host: host, path: components.path, percentEncodedQuery: components.percentEncodedQuery,
            percentEncodedQueryItems: components.percentEncodedQueryItems ?? [])
    }

    private static func same(_ lhs: PlainURL, _ rhs: PlainURL) -> Bool {
        lhs.scheme == rhs.scheme && lhs.host == rhs.host && lhs.path == rhs.path
            && lhs.percentEncodedQuery == rhs.percentEncodedQuery
            && lhs.percentEncodedQueryItems == rhs.percentEncodedQueryItems
    }

    @Test("generated URLs it accepts read exactly as Foundation reads them, and Foundation accepts them strictly")
    func agreesWithFoundation() {
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        // Each list starts with pieces a plain URL may hold; the rest are picked one time in five.
        func pick(_ pieces: [String], plain: Int) -> String { pieces[next(5) == 0 ? next(pieces.count) : next(plain)] }
        let schemes = ["x", "X-Y.z+1", "square-commerce-v1", "sumupmerchant", "1x", "x_y", "", "é"]
        let joiners = ["://", ":", ":/", ":///", "//"]
        let hostPieces = ["h", "H", "payment", "-._~", "x", "u@", ":80", "[::1]", "%41", "h!", "é", " "]
        let pathPieces = [
            "/", "/p", "//", "/create", "/-._~!$&'()*+,;=:@", "/1.0", "/%41", "/a b", "/é", "/[x]", "/%zz",
        ]
        let queryPieces = [
            "a", "=", "&", "b=c", "data=%7B%22a%22%3A1%7D", "%20", "%C3%A9", "?", "/", ":@", "!$'()*+,;",
            "smp-status=success", "paylog_payment=p1",
            "%", "%2", "%zz", " ", "é", "{", "\"", "[", "]", "|", "^", "`", "\\", "#", "#f",
        ]
        var accepted = 0
        var refused = 0
        for _ in 0..<40_000 {
            var raw = pick(schemes, plain: 4) + pick(joiners, plain: 1)
            for _ in 0..<next(3) { raw += pick(hostPieces, plain: 5) }
            for _ in 0..<next(3) { raw += pick(pathPieces, plain: 6) }
            if next(4) != 0 {
                raw += "?"
                for _ in 0..<next(7) { raw += pick(queryPieces, plain: 13) }
            }
            guard let plain = PlainURL.read(raw) else {
                refused += 1
                continue
            }
            accepted += 1
            let reference = Self.foundation(raw)
            #expect(reference.map { Self.same(plain, $0) } == true, "\(raw)")
        }
        #expect(accepted > 10_000)
        #expect(refused > 10_000)
    }

    @Test("empty items, a second ?, = in a value and no query are split as Foundation splits them")
    func edgeCases() throws {
        for raw in [
            "x://h/p?a&&b", "x://h/p?", "x://h/p", "x://h/p?&", "x://h/p?=", "x://h/p?a=b=c", "x://h?q", "x:///p?a",
            "x://h//p?a", "x://h/p??a=?", "x://h/p?%41=%42", "x://h",
        ] {
            let plain = try #require(PlainURL.read(raw), "\(raw)")
            let reference = try #require(Self.foundation(raw), "\(raw)")
            #expect(Self.same(plain, reference), "\(raw)")
        }
        let items = try #require(PlainURL.read("x://h/p?a&&b=c=d")).percentEncodedQueryItems
        #expect(items == [
            URLQueryItem(name: "a", value: nil), URLQueryItem(name: "", value: nil),
            URLQueryItem(name: "b", value: "c=d"),
        ])
    }

    @Test("the URLs providers open and shops receive are read without Foundation")
    func providerURLsArePlain() throws {
        let json = #"{"amount_money":{"amount":"1000","currency_code":"USD"},"callback_url":"myapp://done?x=1","#
            + #""client_id":"sq0idp-abc","version":"1.3","notes":"Table 4 & co"}"#
        let urls = [
            Fixtures.squareLaunch(json),
            Fixtures.squareCallback("myapp://payment/done", json: #"{"status":"ok","transaction_id":"T1"}"#),
            "sumupmerchant://pay/1.0?affiliate-key=k&app-id=com.shop&total=12.50&currency=EUR&title=Coffee"
                + "&callbacksuccess=myapp%3A%2F%2Fok&callbackfail=myapp%3A%2F%2Ffail",
            "myapp://ok?smp-status=success&smp-tx-code=TX1&foreign-tx-id=pay-1",
            "izettle://x-callback-url/payment/1.0?amount=12.50&reference=pay-1&x-success=myapp%3A%2F%2Fok",
            "myapp://ok?paylog_payment=pay-1&type=payment&amount=1250",
        ]
        for url in urls {
            let plain = try #require(PlainURL.read(url), "\(url)")
            let reference = try #require(Self.foundation(url), "\(url)")
            #expect(Self.same(plain, reference), "\(url)")
            #expect(try ParsedURL(url).notes.isEmpty)
        }
    }

    @Test("a URL it leaves to Foundation is still read, leniently when it must be")
    func fallsBackToFoundation() throws {
        #expect(PlainURL.read("myapp://ok?note=a b") == nil)
        let lenient = try ParsedURL("myapp://ok?note=a b")
        #expect(lenient.notes.contains(.lenientURLParsing))
        #expect(lenient.items.first?.value == "a b")
        #expect(PlainURL.read("myapp://user@host:8080/p?a=1#frag") == nil)
        let full = try ParsedURL("myapp://user@host:8080/p%20q?a=1#frag")
        #expect(full.host == "host")
        #expect(full.path == "/p q")
        #expect(full.items == [URLQueryItem(name: "a", value: "1")])
        #expect(throws: ProviderError.self) { try ParsedURL("no scheme here") }
    }
}
