import Foundation
import PaylogCompatibility
import PaylogDomain
import PaylogStore
import PaylogWorkflow
import Testing

/// The attempt rules through ingest into a real store: what the status view holds, that the log's rebuild folds the
/// same, and what the audit says.
@Suite("Ingest: attempts")
struct AttemptIngestTests {
    static func sumupRequest(_ payment: String, _ reference: String, at time: String, amount: String = "10.00") -> String {
        #"{"kind":"request","payment":"\#(payment)","at":"\#(time)","app_version":"1.88.0","url":"sumupmerchant://pay/1.0?amount=\#(amount)&currency=EUR&affiliate-key=AK&foreign-tx-id=\#(reference)&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail"}"#
    }

    static func fail(_ payment: String, at time: String) -> String {
        #"{"kind":"fail","payment":"\#(payment)","at":"\#(time)","reason":"till timeout"}"#
    }

    static func success(_ reference: String, tx: String, at time: String) -> String {
        #"{"kind":"callback","at":"\#(time)","url":"myshop://ok?smp-status=success&smp-tx-code=\#(tx)&foreign-tx-id=\#(reference)"}"#
    }

    static func declined(_ reference: String, at time: String) -> String {
        #"{"kind":"callback","at":"\#(time)","url":"myshop://fail?smp-status=failed&smp-failure-cause=declined&foreign-tx-id=\#(reference)"}"#
    }

    static func line(_ tx: String, _ reference: String, minor: Int) -> String {
        #"{"kind":"reconcile","at":"2026-11-22T08:00:00Z","provider":"sumup","transaction_id":"\#(tx)","foreign_tx_id":"\#(reference)","amount_minor":\#(minor),"currency":"EUR"}"#
    }

    /// o1: the till's timeout ingested after the success it preceded. r1: two attempts, both charged, proven by the
    /// report only. t1: the failed attempt's success during the retry, then the retry's decline. u1: a request after
    /// the success, then its decline.
    static let lines = [
        sumupRequest("o1", "ro1", at: "2026-11-21T09:00:00Z"),
        success("ro1", tx: "OTX", at: "2026-11-21T09:02:40Z"),
        fail("o1", at: "2026-11-21T09:02:00Z"),
        sumupRequest("r1", "refA", at: "2026-11-21T09:00:00Z"),
        fail("r1", at: "2026-11-21T09:02:00Z"),
        sumupRequest("r1", "refB", at: "2026-11-21T09:03:00Z", amount: "12.00"),
        success("refB", tx: "TXB", at: "2026-11-21T09:03:30Z"),
        line("TXA", "refA", minor: 1_000),
        line("TXB", "refB", minor: 1_200),
        sumupRequest("t1", "tA", at: "2026-11-21T09:00:00Z"),
        fail("t1", at: "2026-11-21T09:02:00Z"),
        sumupRequest("t1", "tB", at: "2026-11-21T09:03:00Z"),
        success("tA", tx: "TXTA", at: "2026-11-21T09:03:10Z"),
        declined("tB", at: "2026-11-21T09:03:40Z"),
        sumupRequest("u1", "uA", at: "2026-11-21T09:00:00Z"),
        success("uA", tx: "TXUA", at: "2026-11-21T09:00:30Z"),
        sumupRequest("u1", "uB", at: "2026-11-21T09:01:00Z"),
        declined("uB", at: "2026-11-21T09:01:30Z"),
    ]

    @Test("each payment's status as the rules have it, the rebuild agrees, and the audit says why")
    func attempts() async throws {
        try await RecordedDay.with(Self.lines) { workflow in
            func payment(_ id: String) throws -> Payment { try #require(try PaymentsProjection.payment(id, in: workflow.store)) }
            func notes(_ id: String) throws -> [String] { try PaymentAudit.entries(of: id, in: workflow.store).flatMap(\.notes) }

            let o1 = try payment("o1")
            #expect(o1.status == .completed && o1.hadLateCallback && o1.version == 3)
            #expect(try notes("o1").contains {
                $0.hasPrefix("RECORDED AFTER THE PAYMENT HAD SUCCEEDED, but observed at 2026-11-21T09:02:00.000000Z, before the success "
                    + "(observed 2026-11-21T09:02:40.000000Z)") && $0.hasSuffix("the success is LATE")
            })

            let r1 = try payment("r1")
            #expect(r1.status == .reconciled && r1.transactionID == "TXB" && r1.hadMultipleCharges && !r1.hadAmountMismatch)
            let r1Notes = try notes("r1")
            #expect(r1Notes.contains { $0.hasPrefix("ANOTHER CHARGE REPORTED (TXB, 12.00 EUR; earlier TXA, 10.00 EUR)") }, "\(r1Notes)")
            #expect(!r1Notes.contains { $0.contains("AMOUNT DIFFERS") }, "\(r1Notes)")

            let t1 = try payment("t1")
            #expect(t1.status == .completed && t1.transactionID == "TXTA" && t1.hadLateCallback && t1.errorCode == nil)
            #expect(try notes("t1").contains("LATE: arrived after the attempt it answers had failed"))

            let u1 = try payment("u1")
            #expect(u1.status == .completed && u1.hadRequestAfterSuccess && !u1.hadContradictingCallbacks && u1.errorCode == nil)
            let u1Notes = try notes("u1")
            #expect(u1Notes.contains { $0.hasPrefix("REQUEST AFTER SUCCESS") }, "\(u1Notes)")
            #expect(!u1Notes.contains { $0.contains("CONTRADICTS") }, "\(u1Notes)")

            let report = try LogReplay.run(workflow.store)
            #expect(report.projectionsMatch, "the rebuild's fold reads the recorded fields as the live decisions did")
        }
    }

    @Test("a Square offline success answering an attempt a SumUp retry replaced keeps Square's window and expires")
    func offlineWindowOfTheAnsweringProvider() async throws {
        func encoded(_ json: String) -> String { json.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
        let request = encoded(#"{"version":"1.3","client_id":"c","amount_money":{"amount":500,"currency_code":"USD"},"callback_url":"myshop://cb","options":{"supported_tender_types":["CREDIT_CARD"]},"state":"sqref1"}"#)
        let callback = encoded(#"{"status":"ok","client_transaction_id":"CTX-X1","state":"sqref1"}"#)
        let lines = [
            #"{"kind":"request","payment":"x1","at":"2026-11-21T10:00:00Z","url":"square-commerce-v1://payment/create?data=\#(request)"}"#,
            Self.fail("x1", at: "2026-11-21T10:02:00Z"),
            Self.sumupRequest("x1", "suref1", at: "2026-11-21T10:03:00Z"),
            #"{"kind":"callback","at":"2026-11-21T10:04:00Z","url":"myshop://cb?data=\#(callback)"}"#,
        ]
        try await RecordedDay.with(lines) { workflow in
            let offline = try #require(try PaymentsProjection.payment("x1", in: workflow.store))
            #expect(offline.status == .offline)
            // Square's 24 hours from the callback, although the payment's latest request is SumUp's (which has none).
            let window = try #require(Payment.offlineWindowMicroseconds(.square))
            let observed = try #require(Timestamp(rfc3339: "2026-11-21T10:04:00Z"))
            #expect(offline.offlineExpiresAtMicroseconds == observed.microseconds + window)
            #expect(try await workflow.expireOffline(now: try #require(Timestamp(rfc3339: "2026-11-22T10:03:59Z"))).isEmpty)
            #expect(try await workflow.expireOffline(now: try #require(Timestamp(rfc3339: "2026-11-22T10:04:00Z"))) == ["x1"])
        }
    }

    @Test("a Square success echoing no state, after a SumUp retry, answers the Square attempt: no contradiction, no retry's code")
    func providerTellsTheAttempt() async throws {
        func encoded(_ json: String) -> String { json.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
        // A Square request without `state` (optional in Register API 1.0–1.2): its callback can echo nothing.
        let request = encoded(#"{"version":"1.2","client_id":"c","amount_money":{"amount":1000,"currency_code":"EUR"},"callback_url":"myshop://cb","options":{"supported_tender_types":["CREDIT_CARD"]}}"#)
        let callback = encoded(#"{"status":"ok","transaction_id":"SQM","client_transaction_id":"CTX-SQ"}"#)
        let lines = [
            #"{"kind":"request","payment":"m1","at":"2026-11-21T10:00:00Z","url":"square-commerce-v1://payment/create?data=\#(request)"}"#,
            Self.fail("m1", at: "2026-11-21T10:02:00Z"),
            Self.sumupRequest("m1", "sm1", at: "2026-11-21T10:03:00Z"),
            #"{"kind":"callback","at":"2026-11-21T10:04:00Z","url":"myshop://cb?paylog_payment=m1&data=\#(callback)"}"#,
            Self.declined("sm1", at: "2026-11-21T10:05:00Z"),
        ]
        try await RecordedDay.with(lines) { workflow in
            let payment = try #require(try PaymentsProjection.payment("m1", in: workflow.store))
            #expect(payment.status == .completed && payment.transactionID == "SQM")
            // The Square attempt had failed (the till's timeout) before the retry: its success is the disputed case.
            #expect(payment.hadLateCallback)
            // The SumUp decline answers the retry, which the Square success does not: they contradict nothing, and the
            // decline's code does not describe the charge the status stands on.
            #expect(!payment.hadContradictingCallbacks)
            #expect(payment.errorCode == nil)
            let callbacks = try PaymentAudit.entries(of: "m1", in: workflow.store).filter { $0.event.type == "CallbackReceived" }
            #expect(callbacks.count == 2)
            #expect(callbacks.allSatisfy { !$0.notes.contains("CONTRADICTS an earlier callback") }, "\(callbacks.map(\.notes))")
        }
    }

    @Test("a Square decline echoing no state, after a SumUp retry, fails nothing of the retry; after a success the rule is off")
    func providerTellsTheAttemptOfADecline() async throws {
        func encoded(_ json: String) -> String { json.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
        let request = encoded(#"{"version":"1.2","client_id":"c","amount_money":{"amount":1000,"currency_code":"EUR"},"callback_url":"myshop://cb","options":{"supported_tender_types":["CREDIT_CARD"]}}"#)
        let declined = encoded(#"{"status":"error","error_code":"payment_canceled"}"#)
        let lines = [
            #"{"kind":"request","payment":"d1","at":"2026-11-21T10:00:00Z","url":"square-commerce-v1://payment/create?data=\#(request)"}"#,
            Self.fail("d1", at: "2026-11-21T10:02:00Z"),
            Self.sumupRequest("d1", "sd1", at: "2026-11-21T10:03:00Z"),
            #"{"kind":"callback","at":"2026-11-21T10:04:00Z","url":"myshop://cb?paylog_payment=d1&data=\#(declined)"}"#,
        ]
        try await RecordedDay.with(lines) { workflow in
            let payment = try #require(try PaymentsProjection.payment("d1", in: workflow.store))
            #expect(payment.status == .requested && payment.errorCode == nil, "the SumUp retry is still in progress")
            let notes = try PaymentAudit.entries(of: "d1", in: workflow.store).last?.notes ?? []
            #expect(notes.contains("answers an earlier attempt (square's, echoing no reference) that a retry replaced, not the attempt in progress"), "\(notes)")
        }
        // After the SumUp retry succeeded, a Square decline is not told apart by its provider (the rule needs a
        // payment not yet paid): it is a failure after the success, which fails nothing either.
        try await RecordedDay.with(lines.dropLast() + [Self.success("sd1", tx: "STX", at: "2026-11-21T10:04:00Z"),
                                                       lines[3].replacingOccurrences(of: "10:04:00Z", with: "10:05:00Z")]) { workflow in
            let payment = try #require(try PaymentsProjection.payment("d1", in: workflow.store))
            #expect(payment.status == .completed && payment.transactionID == "STX")
            let last = try PaymentAudit.entries(of: "d1", in: workflow.store).last
            #expect(last?.notes.contains { $0.hasPrefix("answers an earlier attempt") } == false, "\(last?.notes ?? [])")
        }
    }

    @Test("a replaced attempt's late success after the retry's decline leaves no error code, as in the other order")
    func codeOfTheSuccess() async throws {
        let start = [
            Self.sumupRequest("c1", "cA", at: "2026-11-21T09:00:00Z"), Self.fail("c1", at: "2026-11-21T09:02:00Z"),
            Self.sumupRequest("c1", "cB", at: "2026-11-21T09:03:00Z"),
        ]
        let decline = Self.declined("cB", at: "2026-11-21T09:04:00Z")
        let lateSuccess = Self.success("cA", tx: "TXA", at: "2026-11-21T09:05:00Z")
        for order in [[decline, lateSuccess], [lateSuccess, decline]] {
            let payment = try await RecordedDay.with(start + order) { workflow in
                try #require(try PaymentsProjection.payment("c1", in: workflow.store))
            }
            #expect(payment.status == .completed && payment.transactionID == "TXA", "\(order)")
            #expect(payment.errorCode == nil, "the decline's code describes the retry, not the charge: \(order)")
            #expect(payment.hadLateCallback, "\(order)")
        }
    }

    @Test("a reused reference is noted: in the audit against the payment's earlier attempt, in the replay across payments")
    func reusedReference() async throws {
        let lines = [
            Self.sumupRequest("p1", "dup", at: "2026-11-21T09:00:00Z"),
            Self.fail("p1", at: "2026-11-21T09:02:00Z"),
            Self.sumupRequest("p1", "dup", at: "2026-11-21T09:05:00Z"),
            Self.sumupRequest("p2", "dup", at: "2026-11-21T09:06:00Z"),
            Self.sumupRequest("p3", "fresh", at: "2026-11-21T09:07:00Z"),
        ]
        try await RecordedDay.with(lines) { workflow in
            let audit = try PaymentAudit.entries(of: "p1", in: workflow.store).flatMap(\.findings)
                .filter { $0.rule == "evidence.reference-reused" }
            #expect(audit.count == 1, "\(audit)")
            #expect(audit.first?.message.contains("an earlier attempt of this payment") == true, "\(audit)")
            #expect(audit.first?.basis == .confirmed && audit.first?.severity == .warning)
            let replay = try LogReplay.run(workflow.store).findings.listed.filter { $0.rule == "evidence.reference-reused" }
            #expect(replay.map(\.payment).sorted() == ["p1", "p2"], "\(replay)")
            #expect(replay.first { $0.payment == "p2" }?.message.contains("payment p1's request") == true, "\(replay)")
        }
    }

    @Test("a Square report line for a payment whose callback was lost is matched by the payment it names, and only then")
    func reportLineNamingItsPayment() async throws {
        func encoded(_ json: String) -> String { json.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
        func square(_ payment: String, state: String) -> String {
            let data = encoded(#"{"version":"1.3","client_id":"c","amount_money":{"amount":2000,"currency_code":"USD"},"callback_url":"myshop://cb","options":{"supported_tender_types":["CREDIT_CARD"]},"state":"\#(state)"}"#)
            return #"{"kind":"request","payment":"\#(payment)","at":"2026-11-21T10:00:00Z","url":"square-commerce-v1://payment/create?data=\#(data)"}"#
        }
        func line(_ tx: String, _ ctx: String, payment: String? = nil) -> String {
            let named = payment.map { #","payment":"\#($0)""# } ?? ""
            return #"{"kind":"reconcile","at":"2026-11-22T08:00:00Z","provider":"square","transaction_id":"\#(tx)","client_transaction_id":"\#(ctx)","amount_minor":2000,"currency":"USD"\#(named)}"#
        }
        let okCallback = encoded(#"{"status":"ok","client_transaction_id":"CTX-K","transaction_id":"TK","state":"sK"}"#)
        let day = [
            square("lost1", state: "sL"), Self.fail("lost1", at: "2026-11-21T10:02:00Z"),
            square("known1", state: "sK"),
            #"{"kind":"callback","at":"2026-11-21T10:01:00Z","url":"myshop://cb?data=\#(okCallback)"}"#,
        ]
        try await RecordedDay.with(day) { workflow in
            // The lost callback's ids were never learned: by its keys alone the line matches nothing.
            let unnamed = await workflow.ingest(lines: [line("TL1", "CL1")])
            #expect(unnamed.rejected == 1 && unnamed.errors.first?.message.contains("No recorded payment matches") == true)
            // Naming a payment its keys contradict is refused.
            let contradicted = await workflow.ingest(lines: [line("TK", "CTX-K", payment: "lost1")])
            #expect(contradicted.rejected == 1, "\(contradicted.errors)")
            #expect(contradicted.errors.first?.message.contains("matches payment known1") == true, "\(contradicted.errors)")
            let named = await workflow.ingest(lines: [line("TL1", "CL1", payment: "lost1")])
            #expect(named.rejected == 0 && named.eventsAppended == 1, "\(named.errors)")
            let lost = try #require(try PaymentsProjection.payment("lost1", in: workflow.store))
            #expect(lost.status == .reconciled && lost.transactionID == "TL1")
            let notes = try PaymentAudit.entries(of: "lost1", in: workflow.store).flatMap(\.notes)
            #expect(notes.contains { $0.hasPrefix("matched by payment: the line names it") }, "\(notes)")
            // The same line again appends nothing; the log keeps it byte for byte.
            #expect(await workflow.ingest(lines: [line("TL1", "CL1", payment: "lost1")]).eventsAppended == 0)
        }
    }
}
