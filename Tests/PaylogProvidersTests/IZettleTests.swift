import Foundation
import PaylogDomain
import PaylogProviders
import Testing

@Suite("iZettle URLs")
struct IZettleTests {
    let adapter = IZettleAdapter()

    static let launch =
        "izettle://x-callback-url/payment/1.0?x-source=MyShop"
        + "&x-success=myshop://ok?paylog_payment%3Dpay_01J9ZX%26paylog_outcome%3Dsuccess"
        + "&x-failure=myshop://ok?paylog_payment%3Dpay_01J9ZX%26paylog_outcome%3Dfailure"
        + "&api-key=KEY-1&price=100&currency=SEK&title=Coffee&reference=order-7"

    @Test("reads a v1.0 launch URL")
    func readsV1() throws {
        let request = try adapter.parseLaunch(Self.launch, appVersion: nil)
        #expect(request.provider == .izettle)
        #expect(request.apiVersion == "1.0")
        #expect(request.amount == Money(minorUnits: 10_000, currency: .sek))
        #expect(request.rawAmount == "100")
        #expect(request.clientID == "KEY-1")
        #expect(request.title == "Coffee")
        #expect(request.reference == "order-7")
        #expect(request.successCallbackURL == "myshop://ok?paylog_payment=pay_01J9ZX&paylog_outcome=success")
        #expect(request.failureCallbackURL == "myshop://ok?paylog_payment=pay_01J9ZX&paylog_outcome=failure")
        #expect(request.options == ["x-source": "MyShop"])
        #expect(request.parseNotes.isEmpty)
    }

    @Test("reads a non-integer price and the deprecated v3.0 form")
    func readsV3AndDecimals() throws {
        let decimal = try adapter.parseLaunch(
            "izettle://x-callback-url/payment/1.0?price=12.50&currency=EUR", appVersion: nil)
        #expect(decimal.amount == Money(minorUnits: 1250, currency: .eur))
        let v3 = try adapter.parseLaunch(
            "izettle://api/payment/charge?amount=9.90&currency=SEK&reference=r3&successURL=app%3A%2F%2Fs&failureURL=app%3A%2F%2Ff",
            appVersion: nil)
        #expect(v3.apiVersion == "3.0")
        #expect(v3.amount == Money(minorUnits: 990, currency: .sek))
        #expect(v3.successCallbackURL == "app://s")
        #expect(v3.failureCallbackURL == "app://f")
        #expect(v3.reference == "r3")
    }

    static let success = "myshop://ok?paylog_payment=pay_01J9ZX&paylog_outcome=success"
    static let failure = "myshop://ok?paylog_payment=pay_01J9ZX&paylog_outcome=failure"

    @Test("the success URL with the echoed reference is a success")
    func success() throws {
        let url = Fixtures.appending([("reference", "order-7")], to: Self.success)
        let outcome = try Providers.parseCallback(url, provider: .izettle)
        #expect(outcome.provider == .izettle)
        #expect(outcome.status == .success)
        #expect(outcome.reference == "order-7")
        #expect(outcome.errorCode == nil)
        #expect(outcome.routingHint == .paymentID(Fixtures.paymentID))
    }

    @Test(
        "each error-parameter spelling means failure and is the error code",
        arguments: [
            ([("errorCode", "CancelledByUser")], "CancelledByUser", nil as String?),
            ([("error", "InvalidCurrency")], "InvalidCurrency", nil),
            ([("errorMessage", "TechnicalError")], "TechnicalError", "TechnicalError"),
            (
                [("errorMessage", "payment(3) - declined"), ("errorCode", "MissingParameter")], "MissingParameter",
                "payment(3) - declined"
            ),
            ([("error", "InvalidState"), ("errorCode", "TechnicalError")], "TechnicalError", nil),
        ])
    func failures(_ items: [(String, String)], _ code: String, _ message: String?) throws {
        let url = Fixtures.appending(items + [("reference", "order-7")], to: Self.failure)
        let outcome = try adapter.parseCallback(url, hint: nil)
        #expect(outcome.status == .failure)
        #expect(outcome.errorCode == code)
        #expect(outcome.message == message)
        #expect(outcome.reference == "order-7")
        #expect(!outcome.parseNotes.contains(.conflictingOutcome))
    }

    @Test("an error parameter wins over a success marker, and the conflict is noted")
    func conflict() throws {
        let url = Fixtures.appending([("errorCode", "TechnicalError")], to: Self.success)
        let outcome = try adapter.parseCallback(url, hint: .openedSuccessURL)
        #expect(outcome.status == .failure)
        #expect(outcome.parseNotes.contains(.conflictingOutcome))
    }

    @Test("without error parameter or marker, the hint decides; without a hint the status is undetermined")
    func hints() throws {
        let url = "myshop://izettle/done?reference=order-7"
        #expect(try adapter.parseCallback(url, hint: nil).status == .invalid(""))
        #expect(try adapter.parseCallback(url, hint: .openedSuccessURL).status == .success)
        #expect(try adapter.parseCallback(url, hint: .openedFailureURL).status == .failure)
        #expect(try adapter.parseCallback(url, hint: nil).routingHint == .reference("order-7"))
    }

    @Test("a launch-request hint matches the callback against x-success and x-failure")
    func launchHint() throws {
        let request = try adapter.parseLaunch(
            "izettle://x-callback-url/payment/1.0?x-success=myshop%3A%2F%2Fizettle%2Fok&x-failure=myshop%3A%2F%2Fizettle%2Ffail%3Fk%3D1&price=1&currency=SEK",
            appVersion: nil)
        let hint = CallbackHint.launch(request)
        #expect(try adapter.parseCallback("myshop://izettle/ok?reference=r", hint: hint).status == .success)
        #expect(try adapter.parseCallback("myshop://izettle/fail?k=1&reference=r", hint: hint).status == .failure)
        #expect(try adapter.parseCallback("myshop://izettle/fail?reference=r", hint: hint).status == .invalid(""))
        #expect(try adapter.parseCallback("otherapp://izettle/ok", hint: hint).status == .invalid(""))
        let same = try adapter.parseLaunch(
            "izettle://x-callback-url/payment/1.0?x-success=myshop%3A%2F%2Fcb&x-failure=myshop%3A%2F%2Fcb",
            appVersion: nil)
        #expect(try adapter.parseCallback("myshop://cb", hint: .launch(same)).status == .invalid(""))
    }

    @Test("v3 success carries referenceNumber as the transaction id")
    func v3Callback() throws {
        let outcome = try adapter.parseCallback(
            "myshop://s?reference=r3&referenceNumber=R-123&entryMode=EMV&cardBrand=VISA", hint: .openedSuccessURL)
        #expect(outcome.transactionID == "R-123")
        #expect(outcome.fields["entryMode"] == "EMV")
    }

    @Test("an iZettle callback is never guessed: without provider: it cannot be attributed")
    func needsProvider() {
        let url = Fixtures.appending([("errorCode", "CancelledByUser")], to: Self.failure)
        #expect(throws: ProviderError.unattributableCallback(url)) { try Providers.parseCallback(url, provider: nil) }
    }
}
