import Foundation
import PaylogDomain
import PaylogProviders
import Testing

@Suite("Launch URL builder")
struct LaunchBuilderTests {
    static let base = "myshop://paylog/callback"

    static func spec(
        _ provider: Provider, amount: Money = Money(minorUnits: 1250, currency: .eur), reference: String? = "ref-1",
        title: String? = nil
    ) -> LaunchSpec {
        LaunchSpec(
            provider: provider, paymentID: Fixtures.paymentID, amount: amount, reference: reference,
            callbackBaseURL: base, clientID: "client-1", title: title)
    }

    // MARK: Round trips

    @Test("Square: every field comes back from the built URL")
    func squareRoundTrip() throws {
        var spec = Self.spec(.square)
        spec.notes = "Table 4 & 5 = 2+2 / ok?"
        spec.locationID = "LOC-1"
        spec.customerID = "CUST-1"
        spec.tenderTypes = ["CREDIT_CARD", "PAYPAY"]
        spec.autoReturn = true
        spec.skipReceipt = false
        spec.clearDefaultFees = true
        spec.appVersion = "5.1"
        let url = try Providers.buildLaunchURL(for: spec)
        #expect(url.hasPrefix("square-commerce-v1://payment/create?data="))
        let request = try Providers.parseLaunch(url, appVersion: spec.appVersion)
        #expect(request.provider == .square)
        #expect(request.apiVersion == "1.3")
        #expect(request.appVersion == "5.1")
        #expect(request.amount == spec.amount)
        #expect(request.rawAmount == "1250")
        #expect(request.reference == "ref-1")
        #expect(request.clientID == "client-1")
        #expect(request.callbackURL == "myshop://paylog/callback?paylog_payment=pay_01J9ZX")
        #expect(request.notes == spec.notes)
        #expect(request.locationID == "LOC-1")
        #expect(request.customerID == "CUST-1")
        #expect(request.merchantID == nil)
        #expect(request.tenderTypes == ["CREDIT_CARD", "PAYPAY"])
        #expect(request.options == ["auto_return": "true", "skip_receipt": "false", "clear_default_fees": "true"])
        #expect(request.parseNotes.isEmpty)
    }

    @Test("Square: the default tender list is sent where options are required, nothing for pre-1.0")
    func squareDefaults() throws {
        var spec = Self.spec(.square)
        let current = try Providers.parseLaunch(Providers.buildLaunchURL(for: spec))
        #expect(current.tenderTypes == ["CREDIT_CARD"])
        spec.squareAPIVersion = nil
        spec.merchantID = "M-1"
        let legacy = try Providers.parseLaunch(Providers.buildLaunchURL(for: spec))
        #expect(legacy.apiVersion == nil)
        #expect(legacy.fields["version"] == nil)
        #expect(legacy.tenderTypes == nil)
        #expect(legacy.merchantID == "M-1")
        #expect(!legacy.fields.keys.contains { $0.hasPrefix("options") })
    }

    @Test("SumUp: every field comes back, with markers on both callback URLs")
    func sumUpRoundTrip() throws {
        var spec = Self.spec(.sumup, reference: "Ride 42 ~ A+B&C=D", title: "Taxi + tip")
        spec.appVersion = "1.69"
        spec.skipScreenSuccess = true
        spec.receiptEmail = "a+b@example.com"
        spec.receiptMobilePhone = "+3531234567890"
        let url = try Providers.buildLaunchURL(for: spec)
        #expect(url.hasPrefix("sumupmerchant://pay/1.0?"))
        #expect(!url.contains("+"))  // `+` is sent as %2B so no decoder can read a space
        let request = try Providers.parseLaunch(url, appVersion: "1.69")
        #expect(request.apiVersion == "1.0")
        #expect(request.amount == spec.amount)
        #expect(request.rawAmount == "12.50")
        #expect(request.reference == spec.reference)
        #expect(request.title == "Taxi + tip")
        #expect(request.clientID == "client-1")
        #expect(
            request.options == [
                "skip-screen-success": "true", "receipt-email": "a+b@example.com",
                "receipt-mobilephone": "+3531234567890",
            ])
        #expect(
            request.successCallbackURL == "myshop://paylog/callback?paylog_payment=pay_01J9ZX&paylog_outcome=success")
        #expect(
            request.failureCallbackURL == "myshop://paylog/callback?paylog_payment=pay_01J9ZX&paylog_outcome=failure")
    }

    @Test("iZettle: price is whole major units and every field comes back")
    func iZettleRoundTrip() throws {
        var spec = Self.spec(.izettle, amount: Money(minorUnits: 4200, currency: .sek), title: "Coffee")
        spec.sourceName = "My Shop"
        let url = try Providers.buildLaunchURL(for: spec)
        #expect(url.hasPrefix("izettle://x-callback-url/payment/1.0?"))
        let request = try Providers.parseLaunch(url)
        #expect(request.rawAmount == "42")
        #expect(request.amount == spec.amount)
        #expect(request.apiVersion == "1.0")
        #expect(request.title == "Coffee")
        #expect(request.reference == "ref-1")
        #expect(request.clientID == "client-1")
        #expect(request.options == ["x-source": "My Shop"])
        #expect(
            request.successCallbackURL == "myshop://paylog/callback?paylog_payment=pay_01J9ZX&paylog_outcome=success")
    }

    @Test("the callback base keeps its own query and fragment; old markers are replaced")
    func callbackBase() throws {
        var spec = Self.spec(.sumup)
        spec.callbackBaseURL = "https://shop.example/cb?shop=7&paylog_payment=stale#top"
        let request = try Providers.parseLaunch(Providers.buildLaunchURL(for: spec))
        #expect(
            request.successCallbackURL
                == "https://shop.example/cb?shop=7&paylog_payment=pay_01J9ZX&paylog_outcome=success#top")
    }

    @Test("a simulated provider callback routes back to the payment for each provider")
    func callbacksRouteBack() throws {
        let square = try Providers.parseLaunch(Providers.buildLaunchURL(for: Self.spec(.square)))
        let squareCallback = Fixtures.squareCallback(
            try #require(square.callbackURL),
            json: #"{"status":"ok","transaction_id":"T","client_transaction_id":"C","state":"ref-1"}"#,
            joiner: "&")
        let squareOutcome = try Providers.parseCallback(squareCallback, provider: nil)
        #expect(squareOutcome.routingHint == .paymentID(Fixtures.paymentID))
        #expect(squareOutcome.reference == square.reference)

        let sumUp = try Providers.parseLaunch(Providers.buildLaunchURL(for: Self.spec(.sumup)))
        let sumUpCallback = Fixtures.appending(
            [("smp-status", "failed"), ("foreign-tx-id", "ref-1")], to: try #require(sumUp.failureCallbackURL))
        let sumUpOutcome = try Providers.parseCallback(sumUpCallback, provider: nil)
        #expect(sumUpOutcome.status == .failure)
        #expect(sumUpOutcome.routingHint == .paymentID(Fixtures.paymentID))

        let iZettle = try Providers.parseLaunch(
            Providers.buildLaunchURL(
                for: Self.spec(.izettle, amount: Money(minorUnits: 100, currency: .sek), title: "T")))
        let okURL = Fixtures.appending([("reference", "ref-1")], to: try #require(iZettle.successCallbackURL))
        #expect(try Providers.parseCallback(okURL, provider: .izettle).status == .success)
        let failURL = try #require(iZettle.failureCallbackURL)
        #expect(try Providers.parseCallback(failURL, provider: .izettle).status == .failure)
        #expect(try Providers.parseCallback(failURL, provider: .izettle, hint: .launch(iZettle)).status == .failure)
    }

    // MARK: Refusals

    @Test("SumUp refuses skip-screen-success below app 1.69")
    func skipScreenSuccess() throws {
        var spec = Self.spec(.sumup, reference: nil)
        spec.skipScreenSuccess = true
        spec.appVersion = "1.68.9"
        #expect(
            throws: ProviderError.requiresNewerApp(field: "skip-screen-success", minimum: "1.69", declared: "1.68.9")
        ) {
            try Providers.buildLaunchURL(for: spec)
        }
        spec.appVersion = "1.69.0"
        #expect(throws: Never.self) { try Providers.buildLaunchURL(for: spec) }
        spec.appVersion = nil
        #expect(throws: Never.self) { try Providers.buildLaunchURL(for: spec) }
    }

    @Test("SumUp refuses foreign-tx-id below app 1.53, over 128 characters or outside printable ASCII")
    func foreignTxID() throws {
        var spec = Self.spec(.sumup, reference: "ref-1")
        spec.appVersion = "1.52"
        #expect(throws: ProviderError.requiresNewerApp(field: "foreign-tx-id", minimum: "1.53", declared: "1.52")) {
            try Providers.buildLaunchURL(for: spec)
        }
        spec.appVersion = "1.53"
        #expect(throws: Never.self) { try Providers.buildLaunchURL(for: spec) }
        spec.reference = String(repeating: "r", count: 128)
        #expect(throws: Never.self) { try Providers.buildLaunchURL(for: spec) }
        for bad in [String(repeating: "r", count: 129), "café", "tab\there", "line\n", "del\u{7F}"] {
            spec.reference = bad
            #expect {
                try Providers.buildLaunchURL(for: spec)
            } throws: { error in
                guard case .invalidReference(let field, let value, _) = error as? ProviderError else { return false }
                return field == "foreign-tx-id" && value == bad
            }
        }
        spec.reference = ""
        #expect(throws: ProviderError.invalidReference(field: "foreign-tx-id", value: "", reason: "it is empty")) {
            try Providers.buildLaunchURL(for: spec)
        }
    }

    @Test("Square refuses location_id before 1.3 and merchant_id in 1.3")
    func squareLocationAndMerchant() throws {
        var spec = Self.spec(.square)
        spec.locationID = "L"
        for version in ["1.0", "1.1", "1.2", nil] as [String?] {
            spec.squareAPIVersion = version
            #expect(throws: ProviderError.fieldNotInAPIVersion("location_id", version: version, availableIn: "1.3")) {
                try Providers.buildLaunchURL(for: spec)
            }
        }
        spec.locationID = nil
        spec.merchantID = "M"
        spec.squareAPIVersion = "1.3"
        #expect {
            try Providers.buildLaunchURL(for: spec)
        } throws: { error in
            guard case .fieldNotInAPIVersion("merchant_id", "1.3", _) = error as? ProviderError else { return false }
            return true
        }
        spec.squareAPIVersion = "1.2"
        #expect(throws: Never.self) { try Providers.buildLaunchURL(for: spec) }
    }

    @Test("Square refuses customer_id before 1.2", arguments: [nil, "1.0", "1.1"] as [String?])
    func squareCustomerID(_ version: String?) throws {
        var spec = Self.spec(.square)
        spec.customerID = "C"
        spec.squareAPIVersion = version
        #expect(throws: ProviderError.fieldNotInAPIVersion("customer_id", version: version, availableIn: "1.2 and 1.3"))
        {
            try Providers.buildLaunchURL(for: spec)
        }
    }

    @Test(
        "Square refuses tender types the version does not allow",
        arguments: [
            ("1.0", "CASH"), ("1.0", "SQUARE_GIFT_CARD"), ("1.1", "CARD_ON_FILE"), ("1.2", "PAYPAY"),
            ("1.3", "BITCOIN"),
            ("1.3", "credit_card"),
        ])
    func squareTenders(_ version: String, _ tender: String) throws {
        var spec = Self.spec(.square)
        spec.squareAPIVersion = version
        spec.tenderTypes = ["CREDIT_CARD", tender]
        #expect(throws: ProviderError.tenderTypeNotAllowed(tender, version: version)) {
            try Providers.buildLaunchURL(for: spec)
        }
    }

    @Test(
        "Square accepts the tender types each version allows",
        arguments: [
            ("1.1", "CASH"), ("1.1", "OTHER"), ("1.1", "SQUARE_GIFT_CARD"), ("1.2", "CARD_ON_FILE"), ("1.3", "PAYPAY"),
        ])
    func squareTendersAllowed(_ version: String, _ tender: String) throws {
        var spec = Self.spec(.square)
        spec.squareAPIVersion = version
        spec.tenderTypes = [tender]
        #expect(try Providers.parseLaunch(Providers.buildLaunchURL(for: spec)).tenderTypes == [tender])
    }

    @Test("Square refuses unknown versions, an empty tender list, old apps and a missing client id")
    func squareOther() throws {
        var spec = Self.spec(.square)
        for version in ["1.4", "v1.2", "2.0", ""] {
            spec.squareAPIVersion = version
            #expect(throws: ProviderError.unknownSquareAPIVersion(version)) { try Providers.buildLaunchURL(for: spec) }
        }
        spec.squareAPIVersion = "1.3"
        spec.tenderTypes = []
        #expect(throws: ProviderError.missingField("options.supported_tender_types", provider: .square)) {
            try Providers.buildLaunchURL(for: spec)
        }
        spec.tenderTypes = nil
        spec.appVersion = "4.53"
        #expect(throws: ProviderError.apiVersionRequiresNewerApp(version: "1.3", minimum: "4.59", declared: "4.53")) {
            try Providers.buildLaunchURL(for: spec)
        }
        spec.appVersion = "4.x"
        #expect(throws: ProviderError.invalidAppVersion("4.x")) { try Providers.buildLaunchURL(for: spec) }
        // Read by people at a command line or an HTTP client, where there is no `nil` to pass.
        for error in [ProviderError.invalidAppVersion("4.x"), .unknownSquareAPIVersion("7.0")] {
            #expect(!error.description.contains("nil"), "\(error.description)")
            #expect(error.description.contains("none"), "\(error.description)")
        }
        spec.appVersion = nil
        spec.clientID = ""
        #expect(throws: ProviderError.missingField("client_id", provider: .square)) {
            try Providers.buildLaunchURL(for: spec)
        }
    }

    @Test("iZettle refuses a price with a fraction and missing required fields")
    func iZettleRefusals() throws {
        #expect(throws: ProviderError.nonIntegerPrice(Money(minorUnits: 1250, currency: .sek))) {
            try Providers.buildLaunchURL(
                for: Self.spec(.izettle, amount: Money(minorUnits: 1250, currency: .sek), title: "T"))
        }
        #expect(throws: ProviderError.missingField("title", provider: .izettle)) {
            try Providers.buildLaunchURL(for: Self.spec(.izettle, amount: Money(minorUnits: 100, currency: .sek)))
        }
        var spec = Self.spec(.izettle, amount: Money(minorUnits: 100, currency: .sek), title: "T")
        spec.clientID = ""
        #expect(throws: ProviderError.missingField("api-key", provider: .izettle)) {
            try Providers.buildLaunchURL(for: spec)
        }
        spec.clientID = "k"
        spec.sourceName = ""
        #expect(throws: ProviderError.missingField("x-source", provider: .izettle)) {
            try Providers.buildLaunchURL(for: spec)
        }
    }

    @Test("every provider refuses fields it lacks, non-positive amounts, bad callback bases and the wrong adapter")
    func commonRefusals() throws {
        var square = Self.spec(.square)
        square.skipScreenSuccess = true
        #expect(throws: ProviderError.unsupportedField("skip-screen-success", provider: .square)) {
            try Providers.buildLaunchURL(for: square)
        }
        var squareTitle = Self.spec(.square, title: "x")
        squareTitle.notes = nil
        #expect(throws: ProviderError.unsupportedField("title", provider: .square)) {
            try Providers.buildLaunchURL(for: squareTitle)
        }
        var sumUp = Self.spec(.sumup)
        sumUp.locationID = "L"
        #expect(throws: ProviderError.unsupportedField("location_id", provider: .sumup)) {
            try Providers.buildLaunchURL(for: sumUp)
        }
        var iZettle = Self.spec(.izettle, amount: Money(minorUnits: 100, currency: .sek), title: "T")
        iZettle.receiptEmail = "a@b.c"
        #expect(throws: ProviderError.unsupportedField("receipt-email", provider: .izettle)) {
            try Providers.buildLaunchURL(for: iZettle)
        }

        for provider in Provider.allCases {
            for units in [Int64(0), -100] {
                let spec = Self.spec(
                    provider, amount: Money(minorUnits: units, currency: .eur), title: provider == .izettle ? "T" : nil)
                #expect(throws: ProviderError.nonPositiveAmount(spec.amount)) {
                    try Providers.buildLaunchURL(for: spec)
                }
            }
            var spec = Self.spec(
                provider, amount: Money(minorUnits: 100, currency: .eur), title: provider == .izettle ? "T" : nil)
            spec.callbackBaseURL = "not a url"
            #expect(throws: ProviderError.invalidCallbackBaseURL("not a url")) {
                try Providers.buildLaunchURL(for: spec)
            }
            spec.callbackBaseURL = Self.base
            for other in Provider.allCases where other != provider {
                #expect(throws: ProviderError.wrongAdapter(spec: provider, adapter: other)) {
                    try Providers.adapter(for: other).buildLaunchURL(for: spec)
                }
            }
        }
    }
}
