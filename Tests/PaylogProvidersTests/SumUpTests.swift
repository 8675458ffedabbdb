import Foundation
import PaylogDomain
import PaylogProviders
import Testing

@Suite("SumUp URLs")
struct SumUpTests {
    let adapter = SumUpAdapter()

    /// Shaped like SumUp's README sample.
    static let launch =
        "sumupmerchant://pay/1.0?affiliate-key=7ca84f17-84a5-4140-8df6-6ebeed8540fc&app-id=com.example.myapp"
        + "&amount=10.00&currency=EUR&title=Taxi%20Ride&receipt-mobilephone=%2B3531234567890"
        + "&receipt-email=customer%40mail.com&foreign-tx-id=ride-42"
        + "&callbacksuccess=myshop%3A%2F%2Fdone%3Fpaylog_payment%3Dpay_01J9ZX"
        + "&callbackfail=myshop%3A%2F%2Ffail%3Fpaylog_payment%3Dpay_01J9ZX"

    @Test("reads a documented launch URL")
    func readsLaunch() throws {
        let request = try adapter.parseLaunch(Self.launch, appVersion: "1.88.0")
        #expect(request.provider == .sumup)
        #expect(request.rawURL == Self.launch)
        #expect(request.apiVersion == "1.0")
        #expect(request.appVersion == "1.88.0")
        #expect(request.amount == Money(minorUnits: 1000, currency: .eur))
        #expect(request.rawAmount == "10.00")
        #expect(request.clientID == "7ca84f17-84a5-4140-8df6-6ebeed8540fc")
        #expect(request.title == "Taxi Ride")
        #expect(request.reference == "ride-42")
        #expect(request.successCallbackURL == "myshop://done?paylog_payment=pay_01J9ZX")
        #expect(request.failureCallbackURL == "myshop://fail?paylog_payment=pay_01J9ZX")
        #expect(
            request.options == [
                "app-id": "com.example.myapp", "receipt-mobilephone": "+3531234567890",
                "receipt-email": "customer@mail.com",
            ])
        #expect(request.fields.count == 10)
        #expect(request.parseNotes.isEmpty)
    }

    @Test("`+` in a value stays a literal plus, it is not read as a space")
    func plusIsLiteral() throws {
        let request = try adapter.parseLaunch(
            "sumupmerchant://pay/1.0?amount=1.00&currency=EUR&title=Tea+Cake&receipt-mobilephone=+44", appVersion: nil)
        #expect(request.title == "Tea+Cake")
        #expect(request.options["receipt-mobilephone"] == "+44")
    }

    @Test(
        "keeps amounts it cannot read exactly as raw text",
        arguments: ["10,00", "10.005", "ten", "", "1e2"])
    func unreadableAmount(_ raw: String) throws {
        let request = try adapter.parseLaunch(
            "sumupmerchant://pay/1.0?amount=\(Fixtures.uriComponent(raw))&currency=EUR", appVersion: nil)
        #expect(request.amount == nil)
        #expect(request.rawAmount == raw)
    }

    @Test(
        "reads amounts in the currency's own exponent",
        arguments: [("10.5", "EUR", Int64(1050)), ("500", "JPY", 500), ("1.250", "KWD", 1250)])
    func amounts(_ raw: String, _ code: String, _ minor: Int64) throws {
        let request = try adapter.parseLaunch("sumupmerchant://pay/1.0?amount=\(raw)&currency=\(code)", appVersion: nil)
        #expect(request.amount == Money(minorUnits: minor, currency: try CurrencyCode(code)))
    }

    @Test("duplicates keep the first value and are noted; a foreign endpoint is noted")
    func duplicatesAndEndpoint() throws {
        let request = try adapter.parseLaunch(
            "sumupmerchant://charge/2.0?amount=1.00&amount=2.00&currency=EUR", appVersion: nil)
        #expect(request.rawAmount == "1.00")
        #expect(request.apiVersion == "2.0")
        #expect(request.parseNotes.contains(.duplicateQueryItem("amount")))
        #expect(request.parseNotes.contains(.unexpectedEndpoint("charge/2.0")))
    }

    static let callbackBase = "myshop://done?paylog_payment=pay_01J9ZX"

    @Test(
        "reads success and failure callbacks with and without optional items",
        arguments: [
            (
                [("smp-status", "success"), ("smp-tx-code", "TEENSYQ3S"), ("foreign-tx-id", "ride-42")],
                CallbackStatus.success, "TEENSYQ3S" as String?, "ride-42" as String?, nil as String?
            ),
            ([("smp-status", "success")], .success, nil, nil, nil),
            (
                [("smp-status", "failed"), ("smp-message", "Transaction failed"), ("foreign-tx-id", "ride-42")],
                .failure, nil, "ride-42", "failed"
            ),
            (
                [("smp-status", "failed"), ("smp-tx-code", "TX2"), ("smp-failure-cause", "card_declined")], .failure,
                "TX2", nil, "card_declined"
            ),
            ([("smp-status", "invalidstate")], .failure, nil, nil, "invalidstate"),
            ([("smp-status", "weird")], .invalid("weird"), nil, nil, "weird"),
        ])
    func callbacks(
        _ items: [(String, String)], _ status: CallbackStatus, _ tx: String?, _ reference: String?, _ errorCode: String?
    ) throws {
        let url = Fixtures.appending(items, to: Self.callbackBase)
        let outcome = try adapter.parseCallback(url, hint: nil)
        #expect(outcome.provider == .sumup)
        #expect(outcome.rawURL == url)
        #expect(outcome.status == status)
        #expect(outcome.transactionID == tx)
        #expect(outcome.reference == reference)
        #expect(outcome.errorCode == errorCode)
        #expect(outcome.message == items.first { $0.0 == "smp-message" }?.1)
        #expect(outcome.routingHint == .paymentID(Fixtures.paymentID))
        #expect(!outcome.isOffline)
        for (name, value) in items { #expect(outcome.fields[name] == value) }
        #expect(try Providers.parseCallback(url, provider: nil) == outcome)
    }

    @Test("SumUp inserts its query before the #fragment; it is still read")
    func fragment() throws {
        let url = "myshop://done?paylog_payment=pay_01J9ZX&smp-status=success&smp-tx-code=T1#/checkout/receipt"
        let outcome = try Providers.parseCallback(url, provider: nil)
        #expect(outcome.provider == .sumup)
        #expect(outcome.status == .success)
        #expect(outcome.transactionID == "T1")
        #expect(outcome.routingHint == .paymentID(Fixtures.paymentID))
        let built = Fixtures.appending(
            [("smp-status", "failed")], to: "https://shop.example/cb?paylog_payment=pay_01J9ZX#frag")
        #expect(built.hasSuffix("#frag"))
        #expect(try adapter.parseCallback(built, hint: nil).status == .failure)
    }

    @Test("without smp-status (old apps) the outcome marker, then the hint, decides")
    func missingStatus() throws {
        let marked = try adapter.parseCallback(
            "myshop://cb?paylog_payment=pay_01J9ZX&paylog_outcome=failure&smp-tx-code=T", hint: nil)
        #expect(marked.status == .failure)
        let bare = "myshop://cb?smp-tx-code=T"
        #expect(try adapter.parseCallback(bare, hint: nil).status == .invalid(""))
        #expect(try adapter.parseCallback(bare, hint: .openedSuccessURL).status == .success)
        #expect(try adapter.parseCallback(bare, hint: .openedFailureURL).status == .failure)
        let present = "myshop://cb?smp-status=success"
        #expect(try adapter.parseCallback(present, hint: .openedFailureURL).status == .success)
    }

    @Test("without paylog_payment the foreign-tx-id echo routes")
    func routesByReference() throws {
        let outcome = try adapter.parseCallback("myshop://cb?smp-status=success&foreign-tx-id=ride-42", hint: nil)
        #expect(outcome.routingHint == .reference("ride-42"))
        #expect(try adapter.parseCallback("myshop://cb?smp-status=success", hint: nil).routingHint == nil)
    }

    @Test("a raw space in smp-message is read leniently and noted")
    func rawSpace() throws {
        let url = "myshop://cb?paylog_payment=pay_01J9ZX&smp-status=failed&smp-message=Transaction failed"
        let outcome = try adapter.parseCallback(url, hint: nil)
        #expect(outcome.message == "Transaction failed")
        #expect(outcome.status == .failure)
        #expect(outcome.rawURL == url)
        #expect(outcome.parseNotes.contains(.lenientURLParsing))
    }
}
