import PaylogCompatibility
import PaylogDomain
import Testing

@Suite("SumUp and iZettle rules in detail")
struct SumUpIZettleRuleDetailTests {
    func ids(_ subject: Subject) throws -> [String] { try subject.findings().map(\.rule) }

    @Test(
        "version-gated SumUp parameters against the declared app",
        arguments: [
            ("foreign-tx-id", "ref-9", "1.52.9", "sumup.request.foreign-tx-id-app-too-old"),
            ("foreign-tx-id", "ref-9", "1.53.0", nil),
            ("skip-screen-success", "true", "1.68", "sumup.request.skip-screen-success-app-too-old"),
            ("skip-screen-success", "true", "1.69.0", nil),
            ("total", "12.50", "1.87.9", "sumup.request.total-app-too-old"),
            ("total", "12.50", "1.88", nil),
        ] as [(String, String, String, String?)])
    func appGates(name: String, value: String, app: String, expected: String?) throws {
        let changes: [(String, String?)] =
            name == "foreign-tx-id" ? [(name, value)] : [(name, value), ("foreign-tx-id", nil)]
        let found = try ids(.request(F.sumUpLaunch(changes), app: app)).filter { $0.hasSuffix("app-too-old") }
        #expect(found == (expected.map { [$0] } ?? []))
    }

    @Test("without a declared app version, SumUp version rules are not judged and an info says so")
    func unknownApp() throws {
        let url = F.sumUpLaunch([("skip-screen-success", "true"), ("total", "12.50")])
        let findings = try Subject.request(url).findings()
        #expect(!findings.contains { $0.rule.hasSuffix("app-too-old") })
        let info = try #require(findings.first { $0.rule == "sumup.request.app-version-unknown" })
        #expect(info.severity == .info)
    }

    @Test(
        "SumUp amount text",
        arguments: [
            ("12.50", nil), ("12", nil), ("12.5", nil), ("12,50", "sumup.request.amount-format"),
            ("12.505", "sumup.request.amount-format"), ("1 250.00", "sumup.request.amount-not-decimal"),
            ("12.50EUR", "sumup.request.amount-not-decimal"), ("-1.00", "sumup.request.amount-not-positive"),
        ] as [(String, String?)])
    func sumUpAmounts(amount: String, expected: String?) throws {
        let found = try ids(.request(F.sumUpLaunch([("amount", amount)]), app: "1.88.0")).filter {
            $0.hasPrefix("sumup.request.amount")
        }
        #expect(found == (expected.map { [$0] } ?? []))
    }

    @Test("a JPY amount with decimals is flagged; a EUR amount with two is not")
    func currencyDecimals() throws {
        let yen = try ids(.request(F.sumUpLaunch([("amount", "500.5"), ("currency", "JPY")]), app: "1.88.0"))
        #expect(yen.contains("sumup.request.amount-format"))
    }

    @Test("a SumUp echo of a foreign-tx-id that was never sent is a mismatch")
    func unsolicitedEcho() throws {
        let callback = F.sumUpCallback(F.sumUpSuccessItems)
        let found = try ids(
            .callback(callback, provider: .sumup, request: F.sumUpLaunch([("foreign-tx-id", nil)]), app: "1.88.0"))
        #expect(found.contains("sumup.callback.foreign-tx-id-mismatch"))
    }

    @Test(
        "iZettle required parameters",
        arguments: ["x-source", "x-success", "x-failure", "api-key", "price", "currency", "title"])
    func iZettleRequired(key: String) throws {
        let findings = try Subject.request(F.iZettleLaunch([(key, nil)])).findings()
        #expect(
            findings.filter { $0.rule == "izettle.request.required-key-missing" }.map(\.message).contains {
                $0.contains(key)
            })
    }

    @Test(
        "iZettle failure codes",
        arguments: [
            "TechnicalError", "CancelledByUser", "InvalidCurrency", "InvalidState", "MissingParameter", "Timeout",
        ])
    func iZettleCodes(code: String) throws {
        let callback = F.iZettleCallback(success: false, [("errorCode", code), ("reference", "ref-1")])
        let found = try ids(.callback(callback, provider: .izettle, request: F.iZettleLaunch()))
        #expect(found.contains("izettle.callback.error-code-unknown") == (code == "Timeout"))
    }

    @Test("an iZettle reference echo missing from a callback is a mismatch")
    func missingReference() throws {
        let found = try ids(.callback(F.iZettleCallback([]), provider: .izettle, request: F.iZettleLaunch()))
        #expect(found.contains("izettle.callback.reference-mismatch"))
    }
}
