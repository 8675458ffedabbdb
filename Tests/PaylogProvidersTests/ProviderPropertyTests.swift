import Foundation
import PaylogDomain
import PaylogProviders
import PropertyBased
import Testing

@Suite("Provider properties")
struct ProviderPropertyTests {
    static let currencies = ["EUR", "USD", "GBP", "SEK", "JPY", "KRW", "KWD", "BHD", "HUF", "CLF"]

    /// Printable ASCII, space included: what SumUp's foreign-tx-id allows.
    static let printableASCII = Gen.character(in: " "..."~")
    /// Characters that break naive parsers, plus non-ASCII.
    static let awkward = Gen<Character?>.element(of: Array(#"&=+/?#%:;,{}[]"\ data=é€😀 -_.~a1"#) as [Character]).map {
        $0!
    }
    static let idCharacters = Gen.character(in: "!"..."~")

    static func currency(_ code: String?) throws -> CurrencyCode { try CurrencyCode(try #require(code)) }

    @Test("Square: build → parse returns the amount, currency, reference and payment id for random input")
    func squareRoundTrip() async {
        await propertyCheck(
            count: 200,
            input: Gen.int64(in: 1...Int64.max), Gen<String?>.element(of: Self.currencies),
            Self.awkward.string(of: 1...40),
            Self.idCharacters.string(of: 1...40),
            Gen<String??>.element(of: ["1.0", "1.1", "1.2", "1.3", nil] as [String?]).map { $0 ?? nil }
        ) { units, code, reference, id, version in
            let currency = try Self.currency(code)
            let paymentID = try PaymentID(id)
            var spec = LaunchSpec(
                provider: .square, paymentID: paymentID, amount: Money(minorUnits: units, currency: currency),
                reference: reference, callbackBaseURL: "myshop://cb?shop=1", clientID: "sq0idp-" + id)
            spec.squareAPIVersion = version
            spec.notes = reference
            let url = try Providers.buildLaunchURL(for: spec)
            let request = try Providers.parseLaunch(url)
            #expect(request.amount == spec.amount)
            #expect(request.reference == reference)
            #expect(request.notes == reference)
            #expect(request.clientID == spec.clientID)
            #expect(request.apiVersion == version)
            #expect(request.parseNotes.isEmpty)

            let json = #"{"status":"ok","client_transaction_id":"C","state":\#(try Self.jsonString(reference))}"#
            let callback = Fixtures.squareCallback(
                try #require(request.callbackURL), json: json, joiner: "&", encode: Fixtures.queryAllowed)
            let outcome = try Providers.parseCallback(callback, provider: nil)
            #expect(outcome.provider == .square)
            #expect(outcome.reference == reference)
            #expect(outcome.routingHint == .paymentID(paymentID))
            #expect(outcome.isOffline)
        }
    }

    @Test("SumUp: build → parse round-trips decimal amounts and printable-ASCII references")
    func sumUpRoundTrip() async {
        await propertyCheck(
            count: 200,
            input: Gen.int64(in: 1...Int64.max), Gen<String?>.element(of: Self.currencies),
            Self.printableASCII.string(of: 1...128),
            Self.idCharacters.string(of: 1...128), Self.awkward.string(of: 0...30)
        ) { units, code, reference, id, title in
            let currency = try Self.currency(code)
            let paymentID = try PaymentID(id)
            let spec = LaunchSpec(
                provider: .sumup, paymentID: paymentID, amount: Money(minorUnits: units, currency: currency),
                reference: reference, callbackBaseURL: "https://shop.example/sumup#done", clientID: "aff-key",
                title: title,
                appVersion: "1.88.0")
            let request = try Providers.parseLaunch(Providers.buildLaunchURL(for: spec), appVersion: spec.appVersion)
            #expect(request.amount == spec.amount)
            #expect(request.rawCurrency == currency.code)
            #expect(request.reference == reference)
            #expect(request.title == title)
            #expect(request.parseNotes.isEmpty)

            let callback = Fixtures.appending(
                [("smp-status", "success"), ("smp-tx-code", "TX"), ("foreign-tx-id", reference)],
                to: try #require(request.successCallbackURL))
            let outcome = try Providers.parseCallback(callback, provider: nil)
            #expect(outcome.status == .success)
            #expect(outcome.reference == reference)
            #expect(outcome.routingHint == .paymentID(paymentID))
        }
    }

    @Test("iZettle: build → parse round-trips whole amounts and any reference")
    func iZettleRoundTrip() async {
        await propertyCheck(
            count: 200,
            input: Gen.int64(in: 1...900_000_000_000_000), Gen<String?>.element(of: Self.currencies),
            Self.awkward.string(of: 1...60), Self.idCharacters.string(of: 1...20)
        ) { major, code, reference, id in
            let currency = try Self.currency(code)
            var scale: Int64 = 1
            for _ in 0..<currency.minorUnitExponent { scale *= 10 }
            let spec = LaunchSpec(
                provider: .izettle, paymentID: try PaymentID(id),
                amount: Money(minorUnits: major * scale, currency: currency),
                reference: reference, callbackBaseURL: "myshop://izettle", clientID: "key", title: reference)
            let request = try Providers.parseLaunch(Providers.buildLaunchURL(for: spec))
            #expect(request.amount == spec.amount)
            #expect(request.rawAmount == String(major))
            #expect(request.reference == reference)
            #expect(request.title == reference)

            let failure = Fixtures.appending(
                [("errorCode", "CancelledByUser"), ("reference", reference)],
                to: try #require(request.failureCallbackURL))
            let outcome = try Providers.parseCallback(failure, provider: .izettle, hint: .launch(request))
            #expect(outcome.status == .failure)
            #expect(outcome.reference == reference)
            let success = Fixtures.appending([("reference", reference)], to: try #require(request.successCallbackURL))
            #expect(try Providers.parseCallback(success, provider: .izettle).status == .success)
        }
    }

    static let prefixes = [
        "", "square-commerce-v1://payment/create?data=", "square-commerce-v1://payment/create?",
        "sumupmerchant://pay/1.0?",
        "izettle://x-callback-url/payment/1.0?", "myshop://cb?", "myshop://cb?data=", "myshop://cb?paylog_payment=",
        "https://shop.example/cb?smp-status=", "x:",
    ]

    @Test("arbitrary text never crashes a parser: each returns a value echoing the input, or a typed error")
    func parsersNeverCrash() async {
        let text = Gen<Character?>.element(
            of: Array(#"&=+/?#%:{}"\ data=smp-status0123456789abcdefABC.é😀"#) as [Character]
        )
        .map { $0! }.string(of: 0...60)
        await propertyCheck(count: 300, input: Gen<String?>.element(of: Self.prefixes), text) { prefix, tail in
            try Self.checkAllParsers(try #require(prefix) + tail)
        }
        await propertyCheck(count: 300, input: Gen.latin1.string(of: 0...80)) { text in try Self.checkAllParsers(text) }
        await propertyCheck(count: 300, input: Gen.uint8().array(of: 0...80)) { bytes in
            try Self.checkAllParsers("myshop://cb?" + String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Detecting the provider, then reading the callback as it: what ``Providers/detectAndParseCallback(_:)``
    /// must give in one reading.
    static func detectThenParse(_ url: String) -> Result<CallbackOutcome?, ProviderError> {
        Result { () throws(ProviderError) -> CallbackOutcome? in
            guard let provider = try Providers.detectCallbackProvider(url) else { return nil }
            return try Providers.parseCallback(url, provider: provider)
        }
    }

    @Test("detecting and reading a callback in one reading gives what detecting, then reading, gives")
    func detectAndParseAgrees() async {
        var read = 0
        let squareJSON = [
            #"{"status":"ok","transaction_id":"T1","client_transaction_id":"C1","state":"r&1"}"#,
            #"{"status":"error","error_code":"payment_canceled","state":"x"}"#, #"{"transaction_id":"no-status"}"#,
        ]
        var known = squareJSON.flatMap { json in
            [Fixtures.squareCallback("myshop://cb", json: json), "myshop://cb?paylog_payment=p1&data=" + json,
             "myshop://cb?data=" + Fixtures.queryAllowed(json)]
        }
        known += [
            "myshop://done?paylog_payment=pay_01J9ZX&smp-status=success&smp-tx-code=T1#/checkout/receipt",
            "myshop://cb?smp-tx-code=T", "myshop://izettle/ok?reference=r", "not a url", "", "myshop://cb?data=%7B",
        ]
        for url in known {
            let one = Result { () throws(ProviderError) in try Providers.detectAndParseCallback(url) }
            #expect(one == Self.detectThenParse(url), "\(url)")
            if case .success(_?) = one { read += 1 }
        }
        #expect(read >= 7)
        let text = Gen<Character?>.element(of: Array(#"&=+/?#%:{}"\ data=smp-status0123456789abcdefABC.é"#) as [Character])
            .map { $0! }.string(of: 0...60)
        await propertyCheck(count: 500, input: Gen<String?>.element(of: Self.prefixes), text) { prefix, tail in
            let url = try #require(prefix) + tail
            let one = Result { () throws(ProviderError) in try Providers.detectAndParseCallback(url) }
            #expect(one == Self.detectThenParse(url), "\(url)")
        }
    }

    static func checkAllParsers(_ url: String) throws {
        for adapter in Providers.all {
            check(url, provider: adapter.provider) { () throws(ProviderError) in
                try adapter.parseLaunch(url, appVersion: "1.0")
            }
            check(url, provider: adapter.provider) { () throws(ProviderError) in
                try adapter.parseCallback(url, hint: .openedFailureURL)
            }
        }
        do {
            let outcome = try Providers.parseCallback(url, provider: nil)
            #expect(outcome.rawURL == url)
        } catch {
            #expect(!error.description.isEmpty)
        }
        do {
            let request = try Providers.parseLaunch(url)
            #expect(request.rawURL == url)
        } catch {
            #expect(!error.description.isEmpty)
        }
    }

    static func check<T>(_ url: String, provider: Provider, _ parse: () throws(ProviderError) -> T) {
        do {
            let value = try parse()
            if let request = value as? LaunchRequest {
                #expect(request.rawURL == url)
                #expect(request.provider == provider)
            } else if let outcome = value as? CallbackOutcome {
                #expect(outcome.rawURL == url)
                #expect(outcome.provider == provider)
            }
        } catch {
            #expect(!error.description.isEmpty)
        }
    }

    static func jsonString(_ text: String) throws -> String {
        String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    }
}
