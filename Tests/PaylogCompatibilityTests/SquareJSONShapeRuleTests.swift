import Foundation
import PaylogCompatibility
import PaylogDomain
import Testing

/// What the checker says about Square `data` JSON of unexpected shapes: null members, empty ids, non-string
/// versions and states, repeated keys, non-boolean options.
@Suite("Square rules on JSON of unexpected shapes")
struct SquareJSONShapeRuleTests {
    func findings(_ subject: Subject) throws -> [Finding] { try subject.findings() }

    static func callback(_ changes: [String: Any?], base: [String: Any] = F.squareOK) -> String {
        F.squareCallback(F.setting(changes, in: base))
    }

    static func launch(_ json: String) -> String { "square-commerce-v1://payment/create?data=" + F.uriComponent(json) }

    @Test("a null transaction_id on ok is read as offline and said to be null, not an id \"null\"")
    func nullTransactionID() throws {
        let found = try findings(.callback(Self.callback(["transaction_id": NSNull()]), provider: .square, request: F.squareLaunch()))
        let null = try #require(found.first { $0.rule == "square.url.data-null-value" })
        #expect(null.message.contains("transaction_id as JSON null"))
        #expect(null.basis == .inferred)
        #expect(found.contains { $0.rule == "square.callback.offline" })
        #expect(!found.contains { $0.message.contains("\"null\"") })
    }

    @Test("a null client_transaction_id is missing, and said to be null")
    func nullClientTransactionID() throws {
        let found = try findings(
            .callback(Self.callback(["client_transaction_id": NSNull()]), provider: .square, request: F.squareLaunch()))
        let missing = try #require(found.first { $0.rule == "square.callback.client-transaction-id-missing" })
        #expect(missing.message.contains("sends a null client_transaction_id"))
    }

    @Test("a null error_code is missing, not an unknown code \"null\"")
    func nullErrorCode() throws {
        let found = try findings(
            .callback(Self.callback(["error_code": NSNull()], base: F.squareError), provider: .square, request: F.squareLaunch()))
        #expect(found.map(\.rule).contains("square.callback.error-code-missing"))
        #expect(!found.map(\.rule).contains("square.callback.error-code-unknown"))
        #expect(found.first { $0.rule == "square.callback.error-code-missing" }?.message.contains("sends a null error_code") == true)
    }

    @Test("an empty transaction_id is no id, and said to be empty")
    func emptyTransactionID() throws {
        let found = try findings(.callback(Self.callback(["transaction_id": ""]), provider: .square, request: F.squareLaunch()))
        #expect(found.first { $0.rule == "square.callback.id-empty" }?.message.contains("transaction_id as an empty string") == true)
        #expect(found.contains { $0.rule == "square.callback.offline" })
        let emptyClient = try findings(
            .callback(Self.callback(["client_transaction_id": ""]), provider: .square, request: F.squareLaunch()))
        #expect(emptyClient.first { $0.rule == "square.callback.client-transaction-id-missing" }?.message
            .contains("sends an empty client_transaction_id") == true)
    }

    @Test("required request keys sent as null are missing", arguments: ["client_id", "callback_url", "options"])
    func nullRequiredKey(_ key: String) throws {
        let found = try findings(.request(F.squareLaunch("1.3", [key: NSNull()])))
        let missing = found.filter { $0.rule == "square.request.required-key-missing" }
        #expect(missing.count == 1)
        #expect(missing.first?.message.contains("sends \(key) as JSON null") == true)
    }

    @Test(
        "a number version is judged by its literal, and described as what it is",
        arguments: [
            ("1.0", "square.request.version-not-string", "the JSON number 1.0", true),
            ("1.30", "square.request.version-unknown", "the JSON number 1.30", false),
            ("true", "square.request.version-unknown", "the JSON boolean true", false),
        ])
    func versionLiteral(written: String, rule: String, phrase: String, known: Bool) throws {
        let body = F.json(F.squareBody("1.3")).replacingOccurrences(of: #""version":"1.3""#, with: #""version":"# + written)
        let found = try findings(.request(Self.launch(body)))
        #expect(found.map(\.rule).contains(rule))
        let note = try #require(found.first { $0.rule == "square.request.version-not-string" })
        #expect(note.message.contains("sends version as \(phrase),"))
        #expect(note.message.contains(known ? "judged the request as version \(written)" : "as an unknown version"))
        #expect(found.map(\.rule).contains("square.request.version-unknown") != known)
        if let unknown = found.first(where: { $0.rule == "square.request.version-unknown" }) {
            #expect(unknown.message.contains("declares version \(phrase), which"), "\(unknown.message)")
        }
        if known { #expect(!found.contains { $0.message.contains("declares version \"1\"") }) }
    }

    @Test("a null version is a legacy record said to be null, never \"the JSON number null\"")
    func nullVersion() throws {
        let found = try findings(.request(F.squareLaunch("1.3", ["version": NSNull()])))
        #expect(found.map(\.rule).contains("square.request.legacy-pre-1.0"))
        #expect(found.first { $0.rule == "square.url.data-null-value" }?.message.contains("version as JSON null") == true)
        #expect(!found.contains { $0.message.contains("JSON number null") })
    }

    @Test("a key sent twice is named, with the value read and the other")
    func duplicateKey() throws {
        let request = Self.launch(#"{"version":"1.0","version":"1.3","client_id":"c","amount_money":{"amount":500,"currency_code":"USD"},"callback_url":"myshop://cb","options":{"supported_tender_types":["CREDIT_CARD"]}}"#)
        let found = try findings(.request(request))
        let duplicate = try #require(found.first { $0.rule == "square.url.data-duplicate-key" })
        #expect(duplicate.message.contains("version more than once"))
        #expect(duplicate.message.contains(#"read the first value, "1.0""#))
        #expect(duplicate.message.contains(#""1.3""#))
        let callback = F.squareCallbackBase + "&data="
            + F.uriComponent(#"{"status":"error","status":"ok","error_code":"payment_canceled","state":"ref-1"}"#)
        let onCallback = try findings(.callback(callback, provider: .square, request: F.squareLaunch()))
        #expect(onCallback.first { $0.rule == "square.url.data-duplicate-key" }?.message.contains("status more than once") == true)
    }

    @Test("a state that is not a string is echoed verbatim or reported", arguments: [
        (#"{"order":1}"#, #"{"order":2}"#, true), (#"{"order":1}"#, #"{"order":1}"#, false),
        ("42", #""42""#, true), (#""42""#, "42", true), ("42", "42", false),
    ])
    func stateEcho(sent: String, echoed: String, mismatch: Bool) throws {
        let body = F.json(F.squareBody("1.3")).replacingOccurrences(of: #""state":"ref-1""#, with: #""state":"# + sent)
        let callback = F.json(F.squareOK).replacingOccurrences(of: #""state":"ref-1""#, with: #""state":"# + echoed)
        let request = Self.launch(body)
        let found = try findings(.callback(F.squareCallbackBase + "&data=" + F.uriComponent(callback), provider: .square, request: request))
        #expect(found.map(\.rule).contains("square.callback.state-mismatch") == mismatch, "\(found)")
        let onRequest = try findings(.request(request))
        #expect(!onRequest.contains { $0.rule == "square.request.unknown-key" }, "the inside of state is no key")
    }

    @Test("boolean options that are not booleans are reported", arguments: [
        ("clear_default_fees", #""yes""#, true), ("auto_return", #""sometimes""#, true), ("auto_return", #""true""#, true),
        ("auto_return", "1", true), ("clear_default_fees", "false", false), ("auto_return", "true", false),
    ])
    func optionBooleans(key: String, json: String, fires: Bool) throws {
        let body = F.json(F.squareBody("1.3"))
        #expect(body.contains(#""auto_return":true"#))
        let request = Self.launch(body.replacingOccurrences(of: #""auto_return":true"#, with: "\"\(key)\":" + json))
        let reported = try findings(.request(request)).filter { $0.rule == "square.request.option-not-boolean" }
        #expect(reported.isEmpty != fires)
        if fires { #expect(reported.first?.message.contains("options.\(key) as \(json.hasPrefix("\"") ? "the JSON string" : "the JSON number") \(json)") == true) }
    }
}
