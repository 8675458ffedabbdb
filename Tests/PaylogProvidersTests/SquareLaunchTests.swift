import Foundation
import PaylogDomain
import PaylogProviders
import Testing

@Suite("Square launch URLs")
struct SquareLaunchTests {
    let adapter = SquareAdapter()

    /// The Square doc's web sample: amount as the string "500", API 1.3.
    static let docSample = """
        {"amount_money":{"amount":"500","currency_code":"USD"},"callback_url":"https://example.com/callback",\
        "client_id":"sq0idp-1234","version":"1.3","notes":"notes for the transaction",\
        "options":{"supported_tender_types":["CREDIT_CARD","CASH","OTHER","SQUARE_GIFT_CARD","CARD_ON_FILE"]}}
        """

    @Test("reads the doc's web sample, accepting the string amount and noting it")
    func docSample() throws {
        let url = Fixtures.squareLaunch(Self.docSample)
        let request = try adapter.parseLaunch(url, appVersion: "4.59")
        #expect(request.provider == .square)
        #expect(request.rawURL == url)
        #expect(request.apiVersion == "1.3")
        #expect(request.appVersion == "4.59")
        #expect(request.amount == Money(minorUnits: 500, currency: .usd))
        #expect(request.rawAmount == "500")
        #expect(request.currency == .usd)
        #expect(request.rawCurrency == "USD")
        #expect(request.clientID == "sq0idp-1234")
        #expect(request.callbackURL == "https://example.com/callback")
        #expect(request.notes == "notes for the transaction")
        #expect(request.tenderTypes == ["CREDIT_CARD", "CASH", "OTHER", "SQUARE_GIFT_CARD", "CARD_ON_FILE"])
        #expect(request.parseNotes.contains(.amountSentAsString))
        #expect(request.fields["amount_money.amount"] == "500")
        #expect(
            request.fields["options.supported_tender_types"] == "CREDIT_CARD,CASH,OTHER,SQUARE_GIFT_CARD,CARD_ON_FILE")
        #expect(
            Set(request.fields.keys) == [
                "amount_money.amount", "amount_money.currency_code", "callback_url", "client_id", "version", "notes",
                "options.supported_tender_types",
            ])
    }

    @Test("a whole amount written with a fraction or an exponent is read as that integer and noted with its text")
    func amountNotIntegerLiteral() throws {
        for literal in ["500.0", "5e2", "5.00E+2"] {
            let json = #"{"amount_money":{"amount":\#(literal),"currency_code":"USD"},"callback_url":"app://cb","client_id":"c","version":"1.3"}"#
            let request = try adapter.parseLaunch(Fixtures.squareLaunch(json), appVersion: nil)
            #expect(request.amount == Money(minorUnits: 500, currency: .usd))
            #expect(request.parseNotes.contains(.amountNotIntegerLiteral(literal)), "\(literal): \(request.parseNotes)")
        }
        let plain = try adapter.parseLaunch(
            Fixtures.squareLaunch(#"{"amount_money":{"amount":500,"currency_code":"USD"},"callback_url":"app://cb","client_id":"c"}"#),
            appVersion: nil)
        #expect(!plain.parseNotes.contains { if case .amountNotIntegerLiteral = $0 { true } else { false } })
    }

    @Test(
        "reads each API version's request shape",
        arguments: [
            (
                nil as String?,
                #"{"client_id":"c","amount_money":{"amount":100,"currency_code":"USD"},"callback_url":"app://cb","merchant_id":"M1"}"#
            ),
            (
                "1.0",
                #"{"version":"1.0","client_id":"c","amount_money":{"amount":100,"currency_code":"USD"},"callback_url":"app://cb","merchant_id":"M1","options":{"supported_tender_types":["CREDIT_CARD"]}}"#
            ),
            (
                "1.1",
                #"{"version":"1.1","client_id":"c","amount_money":{"amount":100,"currency_code":"USD"},"callback_url":"app://cb","merchant_id":"M1","options":{"supported_tender_types":["CREDIT_CARD","CASH"],"auto_return":true}}"#
            ),
            (
                "1.2",
                #"{"version":"1.2","client_id":"c","amount_money":{"amount":100,"currency_code":"USD"},"callback_url":"app://cb","customer_id":"CUST","options":{"supported_tender_types":["CARD_ON_FILE"],"skip_receipt":false}}"#
            ),
            (
                "1.3",
                #"{"version":"1.3","client_id":"c","amount_money":{"amount":100,"currency_code":"USD"},"callback_url":"app://cb","location_id":"L1","options":{"supported_tender_types":["PAYPAY"],"clear_default_fees":true}}"#
            ),
        ])
    func versions(_ version: String?, _ json: String) throws {
        let request = try adapter.parseLaunch(Fixtures.squareLaunch(json), appVersion: nil)
        #expect(request.apiVersion == version)
        #expect(request.amount == Money(minorUnits: 100, currency: .usd))
        #expect(request.callbackURL == "app://cb")
        #expect(!request.parseNotes.contains(.amountSentAsString))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(request.merchantID == object["merchant_id"] as? String)
        #expect(request.locationID == object["location_id"] as? String)
        #expect(request.customerID == object["customer_id"] as? String)
        let options = object["options"] as? [String: Any]
        #expect(request.tenderTypes == options?["supported_tender_types"] as? [String])
        #expect(request.fields["version"] == version)
        if let autoReturn = options?["auto_return"] as? Bool {
            #expect(request.options["auto_return"] == String(autoReturn))
        }
        if let skip = options?["skip_receipt"] as? Bool { #expect(request.options["skip_receipt"] == String(skip)) }
        if let clear = options?["clear_default_fees"] as? Bool {
            #expect(request.options["clear_default_fees"] == String(clear))
        }
    }

    @Test("reads data whose value leaves & + = / unescaped (URLQueryAllowedCharacterSet advice)")
    func unescapedAmpersands() throws {
        let json =
            #"{"version":"1.3","client_id":"c","amount_money":{"amount":1999,"currency_code":"EUR"},"callback_url":"myshop://cb?a=1&b=2","state":"x&data=y+z/w=","notes":"fish & chips = 2+2"}"#
        let url = "square-commerce-v1://payment/create?data=" + Fixtures.queryAllowed(json)
        #expect(url.contains("&b=2"))  // the fixture really leaves & raw
        let request = try adapter.parseLaunch(url, appVersion: nil)
        #expect(request.reference == "x&data=y+z/w=")
        #expect(request.notes == "fish & chips = 2+2")
        #expect(request.callbackURL == "myshop://cb?a=1&b=2")
        #expect(request.amount == Money(minorUnits: 1999, currency: .eur))
        #expect(request.parseNotes.contains(.dataRecoveredFromRawQuery))
    }

    @Test("reads raw, unencoded JSON leniently and notes it")
    func rawJSON() throws {
        let url =
            #"square-commerce-v1://payment/create?data={"client_id":"c","amount_money":{"amount":5,"currency_code":"JPY"},"callback_url":"app://cb"}"#
        let request = try adapter.parseLaunch(url, appVersion: nil)
        #expect(request.amount == Money(minorUnits: 5, currency: .jpy))
        #expect(request.parseNotes.contains(.lenientURLParsing))
        #expect(request.rawURL == url)
    }

    @Test(
        "keeps an unreadable amount as raw text; a null one is absent",
        arguments: [
            (#""5.00""#, "5.00"), ("5.5", "5.5"), (#""five""#, "five"), ("true", "true"), ("null", nil),
        ] as [(String, String?)])
    func unreadableAmount(_ literal: String, _ raw: String?) throws {
        let json =
            #"{"client_id":"c","amount_money":{"amount":\#(literal),"currency_code":"USD"},"callback_url":"app://cb"}"#
        let request = try adapter.parseLaunch(Fixtures.squareLaunch(json), appVersion: nil)
        #expect(request.amount == nil)
        #expect(request.rawAmount == raw)
        #expect(request.currency == .usd)
    }

    @Test("keeps a malformed currency as raw text and leaves the amount unread")
    func badCurrency() throws {
        let json = #"{"client_id":"c","amount_money":{"amount":100,"currency_code":"usd"},"callback_url":"app://cb"}"#
        let request = try adapter.parseLaunch(Fixtures.squareLaunch(json), appVersion: nil)
        #expect(request.currency == nil)
        #expect(request.rawCurrency == "usd")
        #expect(request.amount == nil)
        #expect(request.rawAmount == "100")
    }

    @Test("a request missing required keys is still read")
    func missingKeys() throws {
        let request = try adapter.parseLaunch(Fixtures.squareLaunch(#"{"version":"1.3"}"#), appVersion: "banana")
        #expect(request.apiVersion == "1.3")
        #expect(request.clientID == nil)
        #expect(request.amount == nil)
        #expect(request.fields == ["version": "1.3"])
        #expect(request.parseNotes.contains(.unreadableAppVersion("banana")))
    }

    @Test("an unexpected host/path is read and noted")
    func unexpectedEndpoint() throws {
        let url = "square-commerce-v1://payment/refund?data=" + Fixtures.uriComponent(#"{"client_id":"c"}"#)
        let request = try adapter.parseLaunch(url, appVersion: nil)
        #expect(request.parseNotes.contains(.unexpectedEndpoint("payment/refund")))
    }

    @Test("refuses URLs that cannot be understood")
    func refusals() {
        #expect(throws: ProviderError.missingSquareData) {
            try adapter.parseLaunch("square-commerce-v1://payment/create", appVersion: nil)
        }
        #expect(throws: ProviderError.missingSquareData) {
            try adapter.parseLaunch("square-commerce-v1://payment/create?dat=%7B%7D", appVersion: nil)
        }
        for bad in ["%7Bnot json", "%5B1%2C2%5D", "", "%22text%22"] {
            #expect(throws: ProviderError.undecodableSquareData("no `data` value decodes to a JSON object")) {
                try adapter.parseLaunch("square-commerce-v1://payment/create?data=" + bad, appVersion: nil)
            }
        }
        #expect(throws: ProviderError.schemeMismatch(expected: .square, scheme: "sumupmerchant")) {
            try adapter.parseLaunch("sumupmerchant://pay/1.0?amount=1", appVersion: nil)
        }
        #expect(throws: ProviderError.notAURL("no scheme here")) {
            try adapter.parseLaunch("no scheme here", appVersion: nil)
        }
    }

    @Test("a second data item does not hide the JSON one")
    func twoDataItems() throws {
        let url = "square-commerce-v1://payment/create?data=junk&data=" + Fixtures.uriComponent(#"{"client_id":"c2"}"#)
        let request = try adapter.parseLaunch(url, appVersion: nil)
        #expect(request.clientID == "c2")
    }
}
