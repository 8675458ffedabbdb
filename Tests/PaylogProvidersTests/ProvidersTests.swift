import Foundation
import PaylogDomain
import PaylogProviders
import Testing

@Suite("Provider dispatch")
struct ProvidersTests {
    @Test(
        "the launch scheme selects the adapter, case-insensitively",
        arguments: [
            ("square-commerce-v1://payment/create?data=%7B%7D", Provider.square),
            ("SQUARE-COMMERCE-V1://payment/create?data=%7B%7D", .square),
            ("sumupmerchant://pay/1.0?amount=1", .sumup),
            ("izettle://x-callback-url/payment/1.0?price=1", .izettle),
        ])
    func dispatch(_ url: String, _ provider: Provider) throws {
        #expect(try Providers.provider(ofLaunchURL: url) == provider)
        let request = try Providers.parseLaunch(url, appVersion: "9.9")
        #expect(request.provider == provider)
        #expect(request.rawURL == url)
        #expect(request.appVersion == "9.9")
    }

    @Test("unknown schemes and non-URLs are refused with a typed error")
    func refusals() {
        #expect(throws: ProviderError.unknownLaunchScheme("paypal")) { try Providers.parseLaunch("paypal://pay?x=1") }
        #expect(throws: ProviderError.notAURL("")) { try Providers.parseLaunch("") }
        #expect(throws: ProviderError.notAURL("://x")) { try Providers.parseLaunch("://x") }
    }

    /// Reads `url` the long way: its scheme found by a full URL parse, then the adapter it selects.
    private static func twoParses(_ url: String) -> Result<LaunchRequest, ProviderError> {
        Result { () throws(ProviderError) in
            try Providers.adapter(for: Providers.provider(ofLaunchURL: url)).parseLaunch(url, appVersion: "1.0")
        }
    }

    @Test(
        "picking the adapter by the URL's scheme prefix reads every URL, and refuses every one, exactly as parsing it for its scheme first",
        arguments: [
            "square-commerce-v1://payment/create?data=%7B%22amount_money%22%3A%7B%22amount%22%3A100%7D%7D",
            "Square-Commerce-V1://payment/create?data=%7B%7D",
            "square-commerce-v1:payment/create?data=%7B%7D",
            "square-commerce-v1://payment/create?data=%7Bnot json",
            "square-commerce-v1://pay ment/create?data=%7B%7D",
            "square-commerce-v1://[::1/create",
            "square-commerce-v1",
            "square-commerce-v1x://payment/create",
            " square-commerce-v1://payment/create?data=%7B%7D",
            "sumupmerchant://pay/1.0?amount=1.50&currency=EUR&affiliate-key=k&title=T%20shirt",
            "SUMUPMERCHANT://pay/1.0?amount=1",
            "sumupmerchant://pay/1.0?amount=%zz",
            "izettle://x-callback-url/payment/1.0?price=1&currency=SEK&reference=r%2D1",
            "izettle:",
            "izettle-x://payment",
            "paypal://pay?x=1",
            "://x",
            "",
            "é://x",
        ])
    func prefixDispatchMatchesParsing(_ url: String) {
        let direct = Result { () throws(ProviderError) in try Providers.parseLaunch(url, appVersion: "1.0") }
        #expect(direct == Self.twoParses(url))
    }

    @Test(
        "a callback read ahead from one parse gives what detection and, naming no provider, the iZettle reading give from their own",
        arguments: [
            Fixtures.squareCallback("myshop://cb", json: #"{"status":"ok","transaction_id":"TX1","client_transaction_id":"CTX1","state":"pay-1"}"#),
            Fixtures.squareCallback("myshop://cb?paylog_payment=pay-2", json: #"{"status":"error","error_code":"payment_canceled"}"#, joiner: "&"),
            "myshop://cb?smp-status=success&smp-tx-code=T1&foreign-tx-id=pay-1",
            "myshop://cb?smp-status=failed&smp-failure-cause=ERR",
            "myshop://paylog-callback?paylog_payment=pay-0312&paylog_outcome=success&reference=pay%2D0312%2Ef5b1cc7c",
            "myshop://cb?errorCode=USER_CANCELLED&reference=r1",
            "myshop://cb?status=ok&name=%E2%82%AC&bad=%FF",
            "myshop://cb",
            "%zz not a url",
            "",
        ])
    func readAheadMatchesSeparateReadings(_ url: String) {
        let ahead = Result { () throws(ProviderError) in try Providers.readCallbackAhead(url) }
        let detected = Result { () throws(ProviderError) in try Providers.detectAndParseCallback(url) }
        #expect(ahead.map(\.named) == detected)
        if case .success(nil) = detected {
            let iZettle = Result { () throws(ProviderError) in try Providers.parseCallback(url, provider: .izettle) }
            #expect(ahead.map(\.asIZettle) == iZettle.map { Optional($0) })
            #expect(ahead.map(\.marker) == .success(Providers.queryValue("paylog_payment", in: url)))
        } else if case .success(let reading) = ahead {
            #expect(reading.asIZettle == nil)
            #expect(reading.marker == nil)
        }
    }

    @Test("a query value is the first item's, percent-decoded, read leniently when the URL needs it")
    func queryValues() {
        let twice = "myshop://cb?paylog_payment=pay%2D1&paylog_payment=x"
        #expect(Providers.queryValue("paylog_payment", in: twice) == "pay-1")
        #expect(Providers.queryValue("paylog_payment", in: "myshop://cb?a=1&paylog_payment") == "")
        #expect(Providers.queryValue("paylog_payment", in: "myshop://cb?a=1") == nil)
        #expect(Providers.queryValue("note", in: "myshop://cb?note=a b&x=1#frag") == "a b")
        #expect(Providers.queryValue("a", in: "not a url") == nil)
        let ahead = try? Providers.readCallbackAhead("myshop://cb?paylog_payment=pay-0312&reference=r")
        #expect(ahead?.marker == "pay-0312")
    }

    @Test("every adapter is listed once, under its own provider")
    func adapters() {
        #expect(Providers.all.map(\.provider) == Provider.allCases)
        #expect(Set(Providers.all.map(\.launchScheme)) == ["square-commerce-v1", "sumupmerchant", "izettle"])
    }

    @Test("error descriptions say what is wrong and what to do, naming the field")
    func descriptions() throws {
        let samples: [(ProviderError, [String])] = [
            (
                .requiresNewerApp(field: "skip-screen-success", minimum: "1.69", declared: "1.60"),
                ["skip-screen-success", "1.69", "1.60"]
            ),
            (.fieldNotInAPIVersion("location_id", version: "1.2", availableIn: "1.3"), ["location_id", "1.2", "1.3"]),
            (.tenderTypeNotAllowed("CASH", version: "1.0"), ["CASH", "1.0", "supported_tender_types"]),
            (.missingField("title", provider: .izettle), ["title", "izettle", "set it"]),
            (.nonIntegerPrice(Money(minorUnits: 1250, currency: .sek)), ["price", "12.50 SEK"]),
            (.unattributableCallback("myshop://cb"), ["provider:"]),
        ]
        for (error, fragments) in samples {
            for fragment in fragments { #expect(error.description.contains(fragment), "\(error)") }
            #expect(error.description.contains(";"))
        }
    }

    @Test(
        "app versions compare numerically, component by component",
        arguments: [
            ("1.69", "1.8", false), ("1.8", "1.69", true), ("1.53", "1.53.0", false), ("1.53", "1.53.2", true),
            ("4.59", "4.100", true), ("2", "1.99.99", false),
        ])
    func appVersions(_ lhs: String, _ rhs: String, _ isLess: Bool) throws {
        let left = try #require(AppVersion(lhs))
        let right = try #require(AppVersion(rhs))
        #expect((left < right) == isLess)
    }

    @Test(
        "app versions that are not dotted numbers are refused",
        arguments: ["", "v1.2", "1..2", "1.2.", ".1", "1.2b", "1 .2"])
    func badAppVersions(_ text: String) {
        #expect(AppVersion(text) == nil)
    }

    @Test("trailing zeros do not change equality or hashing")
    func appVersionEquality() throws {
        let short = try #require(AppVersion("1.53"))
        let long = try #require(AppVersion("1.53.0.0"))
        #expect(short == long)
        #expect(Set([short, long]).count == 1)
        #expect(long.description == "1.53.0.0")
    }
}
