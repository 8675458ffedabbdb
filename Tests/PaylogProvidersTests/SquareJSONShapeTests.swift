import Foundation
import PaylogDomain
import PaylogProviders
import Testing

/// Square `data` JSON that is valid JSON but not the shape the contract describes: `null` members, empty ids,
/// numbers for strings, repeated keys, a `state` that is not a string. The reading must not invent values from them.
@Suite("Square data JSON of unexpected shapes")
struct SquareJSONShapeTests {
    let adapter = SquareAdapter()

    func callback(_ json: String) throws -> CallbackOutcome {
        try adapter.parseCallback(Fixtures.squareCallback("myshop://cb", json: json), hint: nil)
    }

    func launch(_ json: String) throws -> LaunchRequest {
        try adapter.parseLaunch(Fixtures.squareLaunch(json), appVersion: nil)
    }

    static let request = #""client_id":"c","amount_money":{"amount":500,"currency_code":"USD"},"callback_url":"myshop://cb""#

    @Test("a null transaction_id is no transaction id: an offline payment, not one completed with id \"null\"")
    func nullTransactionID() throws {
        let outcome = try callback(#"{"status":"ok","client_transaction_id":"CTX-A","transaction_id":null,"state":"s-a"}"#)
        #expect(outcome.status == .success)
        #expect(outcome.transactionID == nil)
        #expect(outcome.isOffline)
        #expect(outcome.fields["transaction_id"] == nil)
        #expect(outcome.parseNotes.contains(.jsonNull("transaction_id")))
        #expect(outcome.rawURL.contains("%22transaction_id%22%3Anull"), "the evidence keeps the null")
    }

    @Test("null client_transaction_id, error_code, state and status read as absent, each noted")
    func otherNulls() throws {
        let ok = try callback(#"{"status":"ok","client_transaction_id":null,"transaction_id":"TX","state":null}"#)
        #expect(ok.clientTransactionID == nil)
        #expect(ok.reference == nil)
        #expect(ok.parseNotes.contains(.jsonNull("client_transaction_id")) && ok.parseNotes.contains(.jsonNull("state")))
        let error = try callback(#"{"status":"error","error_code":null}"#)
        #expect(error.status == .failure)
        #expect(error.errorCode == nil)
        let noStatus = try callback(#"{"status":null,"transaction_id":"TX"}"#)
        #expect(noStatus.status == .invalid(""))
    }

    @Test("an empty transaction_id or client_transaction_id is no id")
    func emptyIDs() throws {
        let offline = try callback(#"{"status":"ok","client_transaction_id":"CTX-A","transaction_id":""}"#)
        #expect(offline.transactionID == nil)
        #expect(offline.isOffline)
        #expect(offline.fields["transaction_id"] == "", "the observed value stays in fields")
        let online = try callback(#"{"status":"ok","client_transaction_id":"","transaction_id":"TX"}"#)
        #expect(online.clientTransactionID == nil)
        #expect(online.transactionID == "TX")
    }

    @Test("required request keys sent as null are absent: client_id, callback_url, options")
    func nullRequestKeys() throws {
        let request = try launch(#"{"version":"1.3","client_id":null,"amount_money":{"amount":500,"currency_code":"USD"},"callback_url":null,"options":null}"#)
        #expect(request.clientID == nil)
        #expect(request.callbackURL == nil)
        #expect(request.fields["client_id"] == nil && request.fields["callback_url"] == nil && request.fields["options"] == nil)
        #expect(Set(request.parseNotes).isSuperset(of: [.jsonNull("client_id"), .jsonNull("callback_url"), .jsonNull("options")]))
    }

    @Test(
        "a version that is not a string is taken as written",
        arguments: [("1.0", "1.0"), ("1.30", "1.30"), ("1.3", "1.3"), ("true", "true"), ("13e-1", "13e-1")])
    func versionLiteral(written: String, read: String) throws {
        let request = try launch(#"{"version":"# + written + "," + Self.request + "}")
        #expect(request.apiVersion == read)
        #expect(request.parseNotes.contains(.versionNotString(written)))
    }

    @Test("a null version is no version (a legacy pre-1.0 request), noted as null, not as a number")
    func nullVersion() throws {
        let request = try launch(#"{"version":null,"# + Self.request + "}")
        #expect(request.apiVersion == nil)
        #expect(request.parseNotes.contains(.jsonNull("version")))
        #expect(!request.parseNotes.contains { if case .versionNotString = $0 { true } else { false } })
    }

    @Test("a key sent twice reads the first and notes both values, with its path")
    func duplicateKeys() throws {
        let outcome = try callback(#"{"status":"error","status":"ok","error_code":"payment_canceled"}"#)
        #expect(outcome.status == .failure)
        #expect(outcome.parseNotes.contains(.duplicateJSONKey("status", read: "\"error\"", other: "\"ok\"")))
        let request = try launch(#"{"version":"1.0","version":"1.3","client_id":"c","amount_money":{"amount":500,"amount":900,"currency_code":"USD"},"callback_url":"myshop://cb"}"#)
        #expect(request.apiVersion == "1.0")
        #expect(request.parseNotes.contains(.duplicateJSONKey("version", read: "\"1.0\"", other: "\"1.3\"")))
        #expect(request.parseNotes.contains(.duplicateJSONKey("amount_money.amount", read: "500", other: "900")))
        let clean = try launch(#"{"version":"1.3","# + Self.request + "}")
        #expect(!clean.parseNotes.contains { if case .duplicateJSONKey = $0 { true } else { false } })
    }

    @Test("a state that is not a string is kept as its JSON text, and its inside is not read as keys")
    func stateNotString() throws {
        let request = try launch(#"{"version":"1.3","state":{"order":1},"# + Self.request + "}")
        #expect(request.fields["state"] == #"{"order":1}"#)
        #expect(request.fields["state.order"] == nil)
        #expect(request.parseNotes.contains(.stateNotString(#"{"order":1}"#)))
        let number = try callback(#"{"status":"ok","client_transaction_id":"C","transaction_id":"T","state":42}"#)
        #expect(number.reference == "42")
        #expect(number.parseNotes.contains(.stateNotString("42")))
        let string = try callback(#"{"status":"ok","client_transaction_id":"C","transaction_id":"T","state":"42"}"#)
        #expect(!string.parseNotes.contains(.stateNotString("42")))
    }

    @Test("options.clear_default_fees and options.auto_return that are not booleans are noted")
    func optionsNotBoolean() throws {
        let request = try launch(#"{"version":"1.3","options":{"clear_default_fees":"yes","auto_return":true},"# + Self.request + "}")
        #expect(request.parseNotes.contains(.optionNotBoolean("options.clear_default_fees", text: "\"yes\"")))
        #expect(!request.parseNotes.contains { if case .optionNotBoolean("options.auto_return", _) = $0 { true } else { false } })
    }
}
