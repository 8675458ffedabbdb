import PaylogCompatibility
import PaylogDomain
import Testing

@Suite("Square rules in detail")
struct SquareRuleDetailTests {
    func ids(_ subject: Subject) throws -> [String] { try subject.findings().map(\.rule) }

    @Test("the message names the field, the version and what the contract says")
    func supportReadableMessage() throws {
        let findings = try Subject.request(F.squareLaunch("1.0", ["location_id": "L8XK2"])).findings()
        let finding = try #require(findings.first { $0.rule == "square.request.key-not-in-version" })
        #expect(finding.severity == .error)
        #expect(finding.message.hasPrefix("Square API 1.0 request carries location_id, which exists only from API 1.3"))
        #expect(finding.message.contains("Point of Sale 4.59+"))
    }

    @Test(
        "keys outside their versions: location_id before 1.3, merchant_id in 1.3, customer_id before 1.2",
        arguments: [
            (nil as String?, "location_id", true), ("1.2", "location_id", true), ("1.3", "location_id", false),
            (nil, "merchant_id", false), ("1.2", "merchant_id", false), ("1.3", "merchant_id", true),
            (nil, "customer_id", true), ("1.1", "customer_id", true), ("1.2", "customer_id", false),
            ("1.3", "customer_id", false),
        ])
    func keyAvailability(version: String?, key: String, fires: Bool) throws {
        let found = try ids(.request(F.squareLaunch(version, [key: "X1"])))
        #expect(found.contains("square.request.key-not-in-version") == fires)
    }

    @Test(
        "each always-required key is required in every version",
        arguments: ["client_id", "amount_money.amount", "amount_money.currency_code", "callback_url"],
        [nil, "1.0", "1.1", "1.2", "1.3"] as [String?])
    func requiredKeys(key: String, version: String?) throws {
        let findings = try Subject.request(F.squareLaunch(version, [key: nil])).findings()
        let missing = findings.filter { $0.rule == "square.request.required-key-missing" }
        #expect(missing.count == 1)
        #expect(missing.first?.message.contains(key) == true)
    }

    static let tenderTypes = ["CREDIT_CARD", "CASH", "OTHER", "SQUARE_GIFT_CARD", "CARD_ON_FILE", "PAYPAY", "BITCOIN"]
    static let firstVersion: [String: Int] = [
        "CREDIT_CARD": 0, "CASH": 2, "OTHER": 2, "SQUARE_GIFT_CARD": 2, "CARD_ON_FILE": 3, "PAYPAY": 4,
    ]

    @Test("tender types per version", arguments: tenderTypes, [nil, "1.0", "1.1", "1.2", "1.3"] as [String?])
    func tenders(tender: String, version: String?) throws {
        let level = [nil, "1.0", "1.1", "1.2", "1.3"].firstIndex(of: version)!
        let allowed = Self.firstVersion[tender].map { $0 <= level } ?? false
        let found = try ids(.request(F.squareLaunch(version, ["options.supported_tender_types": [tender]])))
        #expect(found.contains("square.request.tender-type-not-in-version") == !allowed)
    }

    @Test("an unknown version skips the version-dependent rules but still requires the common keys")
    func unknownVersion() throws {
        let url = F.squareLaunch(
            "1.4",
            [
                "location_id": "L1", "merchant_id": "M1", "options.supported_tender_types": ["PAYPAY"],
                "client_id": nil,
            ])
        let found = try ids(.request(url, app: "4.10"))
        #expect(found.contains("square.request.version-unknown"))
        #expect(!found.contains("square.request.key-not-in-version"))
        #expect(!found.contains("square.request.tender-type-not-in-version"))
        #expect(!found.contains("square.request.app-below-api-minimum"))
        #expect(found.filter { $0 == "square.request.required-key-missing" }.count == 1)
    }

    @Test(
        "error codes per the request's version",
        arguments: [
            ("user_id_mismatch", "1.2", nil), ("user_id_mismatch", "1.3", "square.callback.error-code-not-in-version"),
            ("location_id_mismatch", "1.2", "square.callback.error-code-not-in-version"),
            ("location_id_mismatch", "1.3", nil),
            ("invalid_customer_id", "1.1", "square.callback.error-code-not-in-version"),
            ("customer_management_not_supported", "1.2", nil),
            ("unsupported_api_version", nil, "square.callback.error-code-not-in-version"),
            ("invalid_version_number", "1.0", nil),
            ("client_not_authorized_for_user", "1.1", nil),
            ("client_not_authorized_for_user", "1.3", "square.callback.error-code-deprecated"),
            ("login_code_invalid", "1.3", "square.callback.error-code-removed"),
            ("amount_too_large", nil, nil), ("no_network_connection", "1.3", nil),
            ("brand_new_code", "1.3", "square.callback.error-code-unknown"),
        ] as [(String, String?, String?)])
    func errorCodes(code: String, version: String?, expected: String?) throws {
        let callback = F.squareCallback(F.setting(["error_code": code], in: F.squareError))
        let findings = try Subject.callback(callback, provider: .square, request: F.squareLaunch(version)).findings()
        let codeRules = findings.map(\.rule).filter { $0.hasPrefix("square.callback.error-code") }
        #expect(codeRules == (expected.map { [$0] } ?? []))
        #expect(
            try Subject.callback(callback, provider: nil).findings().allSatisfy {
                $0.rule != "square.callback.error-code-not-in-version"
            })
    }

    @Test("without the payment's request, request-dependent callback rules are skipped")
    func noRequest() throws {
        let callback = F.squareCallback(F.setting(["state": "other", "payment_id": "P-1"], in: F.squareOK))
        let found = try ids(.callback(callback, provider: .square))
        #expect(!found.contains("square.callback.state-mismatch"))
        #expect(!found.contains("square.callback.legacy-ids-after-1.0"))
        #expect(found.contains("square.callback.legacy-ids"))
    }

    @Test("a missing state echo is a mismatch when the request sent one")
    func missingEcho() throws {
        let callback = F.squareCallback(F.setting(["state": nil], in: F.squareOK))
        let findings = try Subject.callback(callback, provider: .square, request: F.squareLaunch()).findings()
        #expect(findings.contains { $0.rule == "square.callback.state-mismatch" && $0.message.contains("ref-1") })
    }

    @Test("findings carry the payment and position and follow the rule table's order")
    func orderAndIdentity() throws {
        let url = F.squareLaunch("1.0", ["location_id": "L1", "amount_money.amount": "-5", "title": "x"])
        let request = try Subject.request(url).findings(position: 991)
        let order = CompatibilityChecker.rules.map(\.id)
        let positions = request.map { order.firstIndex(of: $0.rule)! }
        #expect(positions == positions.sorted())
        #expect(request.allSatisfy { $0.position == 991 && $0.payment == Fixtures.paymentID })
        #expect(
            Set(request.map(\.rule)) == [
                "square.request.key-not-in-version", "square.request.amount-as-string",
                "square.request.amount-not-positive", "square.request.unknown-key",
            ])
    }
}
