import Foundation
import PaylogDomain
import PaylogProviders
import Testing

@Suite("Square callbacks")
struct SquareCallbackTests {
    let adapter = SquareAdapter()
    static let base = "myshop://paylog/callback?paylog_payment=pay_01J9ZX"

    @Test("an online success carries both transaction ids and routes by paylog_payment")
    func onlineSuccess() throws {
        let json = #"{"status":"ok","transaction_id":"TX123","client_transaction_id":"CL456","state":"ref-1"}"#
        let url = Fixtures.squareCallback(Self.base, json: json, joiner: "&")
        let outcome = try adapter.parseCallback(url, hint: nil)
        #expect(outcome.provider == .square)
        #expect(outcome.rawURL == url)
        #expect(outcome.status == .success)
        #expect(outcome.transactionID == "TX123")
        #expect(outcome.clientTransactionID == "CL456")
        #expect(outcome.reference == "ref-1")
        #expect(outcome.errorCode == nil)
        #expect(!outcome.isOffline)
        #expect(outcome.routingHint == .paymentID(Fixtures.paymentID))
        #expect(outcome.fields["query.paylog_payment"] == "pay_01J9ZX")
        #expect(outcome.fields["status"] == "ok")
    }

    @Test("an offline success has a client transaction id and no transaction id")
    func offline() throws {
        let json = #"{"status":"ok","client_transaction_id":"CL-OFFLINE","state":"ref-2"}"#
        let outcome = try adapter.parseCallback(Fixtures.squareCallback("myshop://cb", json: json), hint: nil)
        #expect(outcome.status == .success)
        #expect(outcome.isOffline)
        #expect(outcome.transactionID == nil)
        #expect(outcome.clientTransactionID == "CL-OFFLINE")
        #expect(outcome.routingHint == .reference("ref-2"))
    }

    @Test("an ok status ignores the SDK's error_code \"0\" but keeps it in fields")
    func okWithZeroErrorCode() throws {
        let json = #"{"status":"ok","transaction_id":"T","client_transaction_id":"C","error_code":"0"}"#
        let outcome = try adapter.parseCallback(Fixtures.squareCallback("myshop://cb", json: json), hint: nil)
        #expect(outcome.errorCode == nil)
        #expect(outcome.fields["error_code"] == "0")
    }

    static let errorCodes = [
        "payment_canceled", "data_invalid", "not_logged_in", "user_not_active", "currency_code_missing",
        "unsupported_currency_code", "currency_code_mismatch", "amount_invalid_format", "amount_too_small",
        "amount_too_large", "invalid_tender_type", "unsupported_tender_type", "could_not_perform",
        "no_network_connection", "user_id_mismatch", "location_id_mismatch", "client_not_authorized_for_user",
        "login_code_invalid", "unsupported_api_version", "invalid_version_number",
        "customer_management_not_supported", "invalid_customer_id", "some_future_code",
    ]

    @Test("an error callback keeps the raw error code, known or not", arguments: errorCodes)
    func errors(_ code: String) throws {
        let json = #"{"status":"error","error_code":"\#(code)","state":"ref-3"}"#
        let outcome = try adapter.parseCallback(Fixtures.squareCallback(Self.base, json: json, joiner: "&"), hint: nil)
        #expect(outcome.status == .failure)
        #expect(outcome.errorCode == code)
        #expect(outcome.transactionID == nil)
        #expect(!outcome.isOffline)
        #expect(outcome.reference == "ref-3")
    }

    @Test("any other status is invalid with its raw value", arguments: ["OK", "pending", "", "true"])
    func invalidStatus(_ status: String) throws {
        let json = #"{"status":"\#(status)","client_transaction_id":"C"}"#
        let outcome = try adapter.parseCallback(Fixtures.squareCallback("myshop://cb", json: json), hint: nil)
        #expect(outcome.status == .invalid(status))
        #expect(!outcome.isOffline)
    }

    @Test("a callback URL with its own query joined by `?` (as the doc's sample builds it)")
    func ownQueryJoinedWithQuestionMark() throws {
        let json = #"{"status":"ok","transaction_id":"T9","client_transaction_id":"C9"}"#
        let url = Fixtures.squareCallback(Self.base, json: json, joiner: "?")
        let outcome = try adapter.parseCallback(url, hint: nil)
        #expect(outcome.transactionID == "T9")
        #expect(outcome.routingHint == .paymentID(Fixtures.paymentID))
        #expect(outcome.parseNotes.contains(.dataRecoveredFromRawQuery))
    }

    @Test("the JSON may contain `data=` and `&` when encoded with URLQueryAllowed")
    func jsonContainingDataEquals() throws {
        let json = #"{"status":"error","error_code":"payment_canceled","state":"a&data=b"}"#
        let url = Fixtures.squareCallback(Self.base, json: json, joiner: "&", encode: Fixtures.queryAllowed)
        let outcome = try adapter.parseCallback(url, hint: nil)
        #expect(outcome.reference == "a&data=b")
        #expect(outcome.errorCode == "payment_canceled")
        #expect(outcome.routingHint == .paymentID(Fixtures.paymentID))
    }

    @Test("the SDK's /square_request path and web (https) callbacks are read the same way")
    func squareRequestPath() throws {
        let json = #"{"status":"ok","transaction_id":"T","client_transaction_id":"C","state":"s"}"#
        for base in [
            "my-app://perform-callback/square_request", "https://shop.example/square/cb?paylog_payment=pay_01J9ZX",
        ] {
            let outcome = try adapter.parseCallback(
                Fixtures.squareCallback(base, json: json, joiner: base.contains("?") ? "&" : "?"), hint: nil)
            #expect(outcome.status == .success)
            #expect(outcome.reference == "s")
        }
    }

    @Test("pre-1.0 payment_id and offline_payment_id stand in for the new keys")
    func preV1() throws {
        let online = try adapter.parseCallback(
            Fixtures.squareCallback("app://cb", json: #"{"status":"ok","payment_id":"P1"}"#), hint: nil)
        #expect(online.transactionID == "P1")
        #expect(!online.isOffline)
        let offline = try adapter.parseCallback(
            Fixtures.squareCallback("app://cb", json: #"{"status":"ok","offline_payment_id":"O1"}"#), hint: nil)
        #expect(offline.clientTransactionID == "O1")
        #expect(offline.isOffline)
    }

    @Test("an invalid paylog_payment is noted and routing falls back to the reference")
    func invalidRoutingID() throws {
        let url = Fixtures.squareCallback(
            "app://cb?paylog_payment=has%20space", json: #"{"status":"ok","state":"r"}"#, joiner: "&")
        let outcome = try adapter.parseCallback(url, hint: nil)
        #expect(outcome.routingHint == .reference("r"))
        #expect(outcome.parseNotes.contains(.invalidRoutingPaymentID("has space")))
    }

    @Test("Providers detects Square from the data JSON's status")
    func detection() throws {
        let url = Fixtures.squareCallback("myshop://cb", json: #"{"status":"error","error_code":"x"}"#)
        #expect(try Providers.detectCallbackProvider(url) == .square)
        #expect(try Providers.parseCallback(url, provider: nil).provider == .square)
        let withoutStatus = Fixtures.squareCallback("myshop://cb", json: #"{"transaction_id":"x"}"#)
        #expect(try Providers.detectCallbackProvider(withoutStatus) == nil)
        #expect(throws: ProviderError.unattributableCallback(withoutStatus)) {
            try Providers.parseCallback(withoutStatus, provider: nil)
        }
        #expect(try Providers.parseCallback(withoutStatus, provider: .square).status == .invalid(""))
    }

    @Test("a callback without data cannot be read as Square")
    func missingData() {
        #expect(throws: ProviderError.missingSquareData) { try adapter.parseCallback("myshop://cb?x=1", hint: nil) }
    }

    @Test("two data items: the first is read, whichever decodes, and the repeat is noted", arguments: [true, false])
    func repeatedData(okFirst: Bool) throws {
        let ok = #"{"status":"ok","transaction_id":"TX1","client_transaction_id":"C1","state":"s1"}"#
        let error = #"{"status":"error","error_code":"payment_canceled","state":"s1"}"#
        let (first, second) = okFirst ? (ok, error) : (error, ok)
        let url = Fixtures.squareCallback("myshop://cb", json: first) + "&data=" + Fixtures.uriComponent(second)
        let outcome = try adapter.parseCallback(url, hint: nil)
        #expect(outcome.status == (okFirst ? .success : .failure))
        #expect(outcome.parseNotes.contains(.duplicateQueryItem("data")))
        #expect(!outcome.parseNotes.contains(.dataRecoveredFromRawQuery))
        #expect(outcome.fields["query.data"] == nil, "the second data is not the callback URL's own query item")
    }

    @Test("two data items in a launch URL: the first request is the one read and judged")
    func repeatedLaunchData() throws {
        let v12 = #"{"amount_money":{"amount":100,"currency_code":"USD"},"callback_url":"myshop://cb","client_id":"c","version":"1.2"}"#
        let v13 = v12.replacingOccurrences(of: "1.2", with: "1.3").replacingOccurrences(of: "100", with: "900")
        let request = try adapter.parseLaunch(Fixtures.squareLaunch(v12) + "&data=" + Fixtures.uriComponent(v13), appVersion: nil)
        #expect(request.apiVersion == "1.2" && request.amount?.minorUnits == 100)
        #expect(request.parseNotes.contains(.duplicateQueryItem("data")))
    }
}
