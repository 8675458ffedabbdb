import Foundation
import PaylogCompatibility
import PaylogDomain
import PaylogProviders
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

/// Callbacks that do not say their outcome are read against the payment's launch requests (which URL was opened;
/// which tenders were allowed), when recorded and when judged.
@Suite("Callbacks read against their requests")
struct CallbackRereadTests {
    static func percent(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }

    /// Records `lines` in a fresh store and returns the status of each payment named, and the store's findings.
    static func record(_ lines: [String], payments: [String]) async throws -> (status: [String: String], findings: [Finding]) {
        try await RecordedDay.with(lines) { workflow in
            var status: [String: String] = [:]
            var findings: [Finding] = []
            for id in payments {
                status[id] = try PaymentsProjection.payment(id, in: workflow.store)?.status.rawValue
                findings += try PaymentAudit.entries(of: id, in: workflow.store).flatMap(\.findings)
            }
            return (status, findings)
        }
    }

    @Test("iZettle callbacks on the shop's own x-success, and v3 success callbacks, complete the payment")
    func iZettle() async throws {
        let v1 = "izettle://x-callback-url/payment/1.0?x-source=shop&x-success=\(Self.percent("myshop://izok"))"
            + "&x-failure=\(Self.percent("myshop://izfail"))&api-key=K&price=12&currency=SEK&title=T&reference=R1"
        let v3 = "izettle://api/payment/charge?successURL=\(Self.percent("myshop://ok6"))&failureURL=\(Self.percent("myshop://fail6"))"
            + "&amount=12.50&reference=R6"
        let (status, findings) = try await Self.record([
            #"{"kind":"request","payment":"z1","at":"2026-11-21T09:00:00Z","url":"\#(v1)"}"#,
            #"{"kind":"callback","payment":"z1","provider":"izettle","at":"2026-11-21T09:01:00Z","url":"myshop://izok?reference=R1"}"#,
            #"{"kind":"request","payment":"z2","at":"2026-11-21T09:00:00Z","url":"\#(v1.replacingOccurrences(of: "R1", with: "R2"))"}"#,
            #"{"kind":"callback","payment":"z2","provider":"izettle","at":"2026-11-21T09:01:00Z","url":"myshop://izfail?reference=R2"}"#,
            #"{"kind":"request","payment":"z6","at":"2026-11-21T09:00:00Z","url":"\#(v3)"}"#,
            #"{"kind":"callback","payment":"z6","provider":"izettle","at":"2026-11-21T09:01:00Z","url":"myshop://ok6?referenceNumber=RN6&entryMode=EMV"}"#,
        ], payments: ["z1", "z2", "z6"])
        #expect(status == ["z1": "completed", "z2": "failed", "z6": "completed"])
        #expect(!findings.contains { $0.rule == "izettle.callback.status-undetermined" }, "\(findings)")
    }

    @Test("an iZettle callback naming neither its payment nor its provider is routed by the reference it echoes")
    func iZettleRoutedByReference() async throws {
        let v1 = "izettle://x-callback-url/payment/1.0?x-source=shop&x-success=\(Self.percent("myshop://izok"))"
            + "&x-failure=\(Self.percent("myshop://izfail"))&api-key=K&price=12&currency=SEK&title=T&reference=R1"
        let lines = [
            #"{"kind":"request","payment":"z1","at":"2026-11-21T09:00:00Z","url":"\#(v1)"}"#,
            #"{"kind":"request","payment":"z2","at":"2026-11-21T09:00:00Z","url":"\#(v1.replacingOccurrences(of: "R1", with: "R2"))"}"#,
            #"{"kind":"callback","at":"2026-11-21T09:01:00Z","url":"myshop://izok?reference=R1"}"#,
            #"{"kind":"callback","at":"2026-11-21T09:01:00Z","url":"myshop://izfail?reference=R2"}"#,
        ]
        let (status, _) = try await Self.record(lines, payments: ["z1", "z2"])
        #expect(status == ["z1": "completed", "z2": "failed"])
        // A reference no request made is still refused, naming what to give.
        let report = try await RecordedDay.with([lines[0]]) { workflow in
            await workflow.ingest(lines: [#"{"kind":"callback","at":"2026-11-21T09:02:00Z","url":"myshop://izok?reference=R9"}"#])
        }
        #expect(report.rejected == 1 && report.errors.first?.message.contains("pass \"provider\" or \"payment\"") == true, "\(report.errors)")
    }

    @Test("an old SumUp app's bare callback on callbacksuccess completes the payment; request builds without foreign-tx-id")
    func oldSumUp() async throws {
        let request = "sumupmerchant://pay/1.0?amount=12.50&currency=EUR&affiliate-key=AK"
            + "&callbacksuccess=\(Self.percent("myshop://ok7"))&callbackfail=\(Self.percent("myshop://fail7"))"
        let (status, _) = try await Self.record([
            #"{"kind":"request","payment":"u7","at":"2026-11-21T09:00:00Z","app_version":"1.40","url":"\#(request)"}"#,
            #"{"kind":"callback","payment":"u7","provider":"sumup","at":"2026-11-21T09:01:00Z","url":"myshop://ok7"}"#,
        ], payments: ["u7"])
        #expect(status == ["u7": "completed"])

        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let spec = LaunchSpec(
            provider: .sumup, paymentID: try PaymentID("b1"), amount: Money(minorUnits: 1250, currency: try CurrencyCode("EUR")),
            reference: nil, callbackBaseURL: "myshop://cb", clientID: "AK", appVersion: "1.52")
        let launch = try await workflow.requestLaunch(spec, observedAt: Timestamp(microseconds: 1_764_000_000_000_000))
        #expect(launch.reference == nil)
        #expect(!launch.launchURL.contains("foreign-tx-id"))
        #expect(launch.outcome.eventsAppended == 1)
    }

    @Test("a Square success without transaction_id is offline for a card request, completed for a cash-only one")
    func squareTenders() async throws {
        func request(_ payment: String, tenders: String) -> String {
            let data = #"{"version":"1.3","client_id":"CID","amount_money":{"amount":500,"currency_code":"USD"},"callback_url":"myapp://cb","state":"\#(payment)","options":{"supported_tender_types":[\#(tenders)]}}"#
            return "square-commerce-v1://payment/create?data=" + Self.percent(data)
        }
        func callback(_ payment: String) -> String {
            "myapp://cb?data=" + Self.percent(#"{"status":"ok","client_transaction_id":"CTX-\#(payment)","state":"\#(payment)"}"#)
        }
        let (status, _) = try await Self.record([
            #"{"kind":"request","payment":"cash1","at":"2026-11-21T09:00:00Z","url":"\#(request("cash1", tenders: #""CASH""#))"}"#,
            #"{"kind":"callback","at":"2026-11-21T09:01:00Z","url":"\#(callback("cash1"))"}"#,
            #"{"kind":"request","payment":"card1","at":"2026-11-21T09:00:00Z","url":"\#(request("card1", tenders: #""CREDIT_CARD","CASH""#))"}"#,
            #"{"kind":"callback","at":"2026-11-21T09:01:00Z","url":"\#(callback("card1"))"}"#,
        ], payments: ["cash1", "card1"])
        #expect(status == ["cash1": "completed", "card1": "offline"])
    }

    @Test("a late callback of an earlier SumUp attempt is judged against that attempt, not flagged as another payment's")
    func earlierAttempt() async throws {
        func request(_ reference: String, at time: String) -> String {
            let url = "sumupmerchant://pay/1.0?amount=12.50&currency=EUR&affiliate-key=AK&foreign-tx-id=\(reference)"
                + "&callbacksuccess=\(Self.percent("myshop://ok"))&callbackfail=\(Self.percent("myshop://fail"))"
            return #"{"kind":"request","payment":"late1","at":"\#(time)","app_version":"1.88.0","url":"\#(url)"}"#
        }
        let (status, findings) = try await Self.record([
            request("late1-a1", at: "2026-11-21T09:00:00Z"),
            request("late1-a2", at: "2026-11-21T09:02:00Z"),
            #"{"kind":"callback","at":"2026-11-21T09:04:00Z","url":"myshop://ok?smp-status=success&smp-tx-code=TXA1&foreign-tx-id=late1-a1"}"#,
        ], payments: ["late1"])
        #expect(status == ["late1": "completed"])
        #expect(!findings.contains { $0.rule == "sumup.callback.foreign-tx-id-mismatch" }, "\(findings)")
    }

    @Test("a SumUp status opposite to the shop's own callback URL it came on is noted, without paylog's marker")
    func sumUpStatusAgainstOpenedURL() async throws {
        let request = "sumupmerchant://pay/1.0?amount=12.50&currency=EUR&affiliate-key=AK&foreign-tx-id=ref-2"
            + "&callbacksuccess=\(Self.percent("myshop://pay/ok"))&callbackfail=\(Self.percent("myshop://pay/fail"))"
        func lines(_ payment: String, _ callback: String) -> [String] {
            [
                #"{"kind":"request","payment":"\#(payment)","at":"2026-11-21T09:00:00Z","app_version":"1.88.0","url":"\#(request)"}"#,
                #"{"kind":"callback","payment":"\#(payment)","at":"2026-11-21T09:00:30Z","url":"\#(callback)"}"#,
            ]
        }
        let (status, findings) = try await Self.record(
            lines("p2", "myshop://pay/fail?smp-status=success&smp-tx-code=TX2&foreign-tx-id=ref-2")
                + lines("p3", "myshop://pay/ok?smp-status=failed&foreign-tx-id=ref-2")
                + lines("p4", "myshop://pay/ok?smp-status=success&smp-tx-code=TX4&foreign-tx-id=ref-2"),
            payments: ["p2", "p3", "p4"])
        #expect(status == ["p2": "completed", "p3": "failed", "p4": "completed"], "smp-status decides, as recorded")
        let noted = findings.filter { $0.rule == "sumup.callback.status-contradicts-url" }
        #expect(noted.map(\.payment).sorted() == ["p2", "p3"], "\(findings)")
        #expect(noted.first { $0.payment == "p2" }?.message.contains("callbackfail") == true)
    }

    @Test("the judge reports a callback recorded with an unknown outcome that its request now decides")
    func recordedUndetermined() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let v1 = "izettle://x-callback-url/payment/1.0?x-source=shop&x-success=\(Self.percent("myshop://izok"))"
            + "&x-failure=\(Self.percent("myshop://izfail"))&api-key=K&price=12&currency=SEK&title=T&reference=R1"
        _ = await workflow.ingest(lines: [
            #"{"kind":"request","payment":"z1","at":"2026-11-21T09:00:00Z","url":"\#(v1)"}"#,
            #"{"kind":"callback","payment":"z1","provider":"izettle","at":"2026-11-21T09:01:00Z","url":"myshop://izok?reference=R1"}"#,
        ])
        let steps = try PaymentHistory.steps(of: "z1", in: workflow.store)
        #expect(steps.count == 2)
        var judge = EvidenceJudge()
        _ = judge.judge(steps[0].event, decoded: steps[0].decoded)
        // The callback as a build before this change recorded it: outcome unknown.
        guard case .callbackReceived(var received) = steps[1].decoded else { Issue.record("not a callback"); return }
        #expect(received.outcome.status == .success, "recorded today with its request's help")
        let asRecorded = judge.judge(steps[1].event, decoded: .callbackReceived(received)).findings
        #expect(!asRecorded.contains { $0.rule == "evidence.callback-outcome-undetermined-when-recorded" })
        received.outcome.status = .invalid("")
        var again = EvidenceJudge()
        _ = again.judge(steps[0].event, decoded: steps[0].decoded)
        let findings = again.judge(steps[1].event, decoded: .callbackReceived(received)).findings
        #expect(findings.contains { $0.rule == "evidence.callback-outcome-undetermined-when-recorded" && $0.message.contains("reports success") })
    }
}
