import Foundation
import PaylogDomain
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

/// The audit's notes on callbacks recorded after their payment had failed: "late" is recording order, and when the
/// callback was observed before the failure the note must say so — the failure may have been premature.
@Suite("Payment audit")
struct PaymentAuditTests {
    static let request = #"{"kind":"request","payment":"p1","at":"2026-11-21T09:00:00Z","app_version":"1.88.0","url":"sumupmerchant://pay/1.0?amount=10.00&currency=EUR&affiliate-key=k&foreign-tx-id=ref-p1&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail"}"#
    static let fail = #"{"kind":"fail","payment":"p1","at":"2026-11-21T09:05:00Z","reason":"no callback in 5 min"}"#

    static func callback(at time: String) -> String {
        #"{"kind":"callback","at":"\#(time)","url":"myshop://ok?smp-status=success&smp-tx-code=TX1&foreign-tx-id=ref-p1"}"#
    }

    static func lateNotes(_ lines: [String]) async throws -> [String] {
        try await RecordedDay.with(lines) { workflow in
            try PaymentAudit.entries(of: "p1", in: workflow.store).flatMap(\.notes).filter { $0.hasPrefix("LATE") }
        }
    }

    @Test("a callback observed after the failure is late; one observed before it, but recorded after, says so")
    func lateNotes() async throws {
        let after = try await Self.lateNotes([Self.request, Self.fail, Self.callback(at: "2026-11-21T09:06:00Z")])
        #expect(after == ["LATE: arrived after the payment had failed"])
        let before = try await Self.lateNotes([Self.request, Self.fail, Self.callback(at: "2026-11-21T09:00:31Z")])
        #expect(before.count == 1)
        #expect(before.first?.contains("observed at 2026-11-21T09:00:31.000000Z, before the failure") == true)
        #expect(before.first?.contains("may have been premature") == true)
    }
}

/// A report line for a payment another line had reconciled: recorded (its amount is evidence), noted in the audit,
/// and the same line again recognised.
@Suite("Payment audit: further report lines")
struct PaymentAuditReportLineTests {
    static func line(_ tx: String, minor: Int) -> String {
        #"{"kind":"reconcile","at":"2026-11-22T08:00:00Z","provider":"sumup","transaction_id":"\#(tx)","foreign_tx_id":"ref-p1","amount_minor":\#(minor),"currency":"EUR"}"#
    }

    /// `line` as `paylog reconcile` takes it: without `kind`, observed later, its keys in another order.
    static func rewrapped(_ line: String) -> String {
        let object = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
        var fields = object.filter { $0.key != "kind" }
        fields["at"] = "2026-11-23T10:00:00Z"
        let data = try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    @Test("a second line with the same transaction id and another amount is recorded and noted; the same row again, however wrapped, appends nothing")
    func furtherLine() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let day = await workflow.ingest(lines: [PaymentAuditTests.request, PaymentAuditTests.callback(at: "2026-11-21T09:01:00Z")])
        #expect(day.rejected == 0, "\(day.errors)")
        do {
            let first = await workflow.ingest(lines: [Self.line("TX1", minor: 1_000)], defaultKind: "reconcile")
            #expect(first.eventsAppended == 1, "\(first.errors)")
            let again = await workflow.ingest(
                lines: [Self.line("TX1", minor: 1_000), Self.line("TX1", minor: 10_000), Self.line("TX2", minor: 1_000),
                        Self.line("TX1", minor: 10_000), Self.rewrapped(Self.line("TX1", minor: 1_000))],
                defaultKind: "reconcile")
            #expect(again.accepted == 5 && again.eventsAppended == 2, "\(again.errors)")
            let notes = try PaymentAudit.entries(of: "p1", in: workflow.store).filter { $0.event.type == "Reconciled" }.map(\.notes)
            #expect(notes.count == 3)
            #expect(notes.first?.contains { $0.hasPrefix("a further report line") } == false)
            #expect(notes.dropFirst().first?.contains(
                "a further report line for this payment with the same transaction id: AMOUNT DIFFERS from the earlier line's (10.00 EUR → 100.00 EUR)") == true,
                "\(notes)")
            // Another transaction id is another charge, not a changed amount.
            #expect(notes.last?.contains {
                $0.hasPrefix("ANOTHER CHARGE REPORTED (TX2, 10.00 EUR; earlier TX1, 100.00 EUR): the provider reports more than one transaction")
            } == true, "\(notes)")
            // SumUp's callback gives the transaction code, its report the transaction id: no "not one the callbacks
            // reported" note for them (Square's, whose report repeats the callback's id, is checked below).
            #expect(notes.joined().allSatisfy { !$0.hasPrefix("the report's transaction id") }, "\(notes)")
            let payment = try #require(try PaymentsProjection.payment("p1", in: workflow.store))
            #expect(payment.status == .reconciled && payment.transactionID == "TX2" && payment.hadAmountMismatch)
            #expect(payment.hadMultipleCharges, "TX1 and TX2 on the report: two charges")
        }
    }
}

/// A payment reconciled while it stood failed: the provider took the money after all, and when the report line
/// was observed before the failure (an expiry run before the report arrived), the failure was premature.
@Suite("Payment audit: reconciled after a failure")
struct PaymentAuditReconciledAfterFailureTests {
    static func percent(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
    static let request = #"{"kind":"request","payment":"s1","at":"2026-11-21T09:00:00Z","url":"square-commerce-v1://payment/create?data=\#(percent(#"{"version":"1.3","client_id":"C","amount_money":{"amount":1000,"currency_code":"USD"},"callback_url":"myapp://cb","state":"ST-1"}"#))"}"#
    static let offline = #"{"kind":"callback","at":"2026-11-21T09:00:40Z","url":"myapp://cb?data=\#(percent(#"{"status":"ok","client_transaction_id":"CTX-S1","state":"ST-1"}"#))"}"#
    static func line(at time: String) -> String {
        #"{"kind":"reconcile","at":"\#(time)","provider":"square","transaction_id":"TX-S1","client_transaction_id":"CTX-S1","amount_minor":1000,"currency":"USD"}"#
    }

    static func notes(expiringAt now: String, line time: String) async throws -> [[String]] {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        #expect(await workflow.ingest(lines: [request, offline]).rejected == 0)
        #expect(try await workflow.expireOffline(now: try #require(Timestamp(rfc3339: now))) == ["s1"])
        let report = await workflow.ingest(lines: [line(at: time)])
        #expect(report.eventsAppended == 1, "\(report.errors)")
        return try PaymentAudit.entries(of: "s1", in: workflow.store).map(\.notes)
    }

    @Test("an expiry run before the report arrived: the line observed inside the window says the expiry was premature")
    func prematureExpiry() async throws {
        let notes = try await Self.notes(expiringAt: "2026-11-22T09:00:45Z", line: "2026-11-22T09:00:00Z")
        let expiry = try #require(notes.joined().first { $0.hasPrefix("failed by expiry:") })
        #expect(expiry.contains("expired at 2026-11-22T09:00:40") && !expiry.contains("µs"), "\(expiry)")
        let reconciled = try #require(notes.last?.first { $0.hasPrefix("RECONCILED AFTER THE PAYMENT HAD FAILED (by expiry)") })
        #expect(reconciled.contains("observed at 2026-11-22T09:00:00.000000Z, before the failure") && reconciled.hasSuffix("premature"), "\(reconciled)")
    }

    @Test("a Square report line whose transaction id no success callback reported is noted; the callback's own is not")
    func strangeTransaction() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let online = #"{"kind":"callback","at":"2026-11-21T09:00:40Z","url":"myapp://cb?data=\#(Self.percent(#"{"status":"ok","transaction_id":"TX-S1","client_transaction_id":"CTX-S1","state":"ST-1"}"#))"}"#
        #expect(await workflow.ingest(lines: [Self.request, online]).rejected == 0)
        let other = Self.line(at: "2026-11-22T09:00:00Z").replacingOccurrences(of: #""transaction_id":"TX-S1""#, with: #""transaction_id":"TX-OTHER""#)
        let report = await workflow.ingest(lines: [Self.line(at: "2026-11-22T09:00:00Z"), other])
        #expect(report.eventsAppended == 2, "\(report.errors)")
        let notes = try PaymentAudit.entries(of: "s1", in: workflow.store).suffix(2).map { $0.notes.filter { $0.hasPrefix("the report's transaction id") } }
        #expect(notes.map(\.count) == [0, 1] && notes.last?.first?.contains("TX-OTHER is not one the success callbacks reported (TX-S1)") == true, "\(notes)")
    }

    @Test("a SumUp report line after a Square retry's success is not held to the Square callback's transaction id")
    func otherProvidersLineAfterSquareCallback() async throws {
        func percent(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
        let square = #"{"version":"1.3","client_id":"C","amount_money":{"amount":1250,"currency_code":"EUR"},"callback_url":"myshop://cb","state":"st-y1b"}"#
        let online = #"{"status":"ok","transaction_id":"TX-SQY","client_transaction_id":"CTX-Y1","state":"st-y1b"}"#
        let lines = [
            #"{"kind":"request","payment":"y1","at":"2026-11-21T09:00:00Z","app_version":"1.88.0","url":"sumupmerchant://pay/1.0?amount=12.50&currency=EUR&affiliate-key=k&foreign-tx-id=ref-y1a&callbacksuccess=myshop%3A%2F%2Fok"}"#,
            #"{"kind":"fail","payment":"y1","at":"2026-11-21T09:02:00Z","reason":"timeout"}"#,
            #"{"kind":"request","payment":"y1","at":"2026-11-21T09:03:00Z","url":"square-commerce-v1://payment/create?data=\#(percent(square))"}"#,
            #"{"kind":"callback","at":"2026-11-21T09:04:00Z","url":"myshop://cb?data=\#(percent(online))"}"#,
            #"{"kind":"callback","at":"2026-11-21T09:05:00Z","url":"myshop://ok?smp-status=success&smp-tx-code=TX-SUY&foreign-tx-id=ref-y1a"}"#,
            #"{"kind":"reconcile","at":"2026-11-22T08:00:00Z","provider":"sumup","transaction_id":"TX-SUY","foreign_tx_id":"ref-y1a","amount_minor":1250,"currency":"EUR"}"#,
            #"{"kind":"reconcile","at":"2026-11-22T08:00:01Z","provider":"square","transaction_id":"TX-SQ-OTHER","client_transaction_id":"CTX-Y1","amount_minor":1250,"currency":"EUR"}"#,
        ]
        let notes = try await RecordedDay.with(lines) { workflow in
            try PaymentAudit.entries(of: "y1", in: workflow.store).suffix(2).map { $0.notes.filter { $0.hasPrefix("the report's transaction id") } }
        }
        #expect(notes.first == [], "SumUp's report names its own transaction id, not Square's: \(notes)")
        #expect(notes.last?.first?.contains("TX-SQ-OTHER is not one the success callbacks reported (TX-SQY)") == true, "\(notes)")
    }

    @Test("a report line observed after the expiry: the money was taken after all, and no word of premature")
    func lateReport() async throws {
        let notes = try await Self.notes(expiringAt: "2026-11-22T09:00:45Z", line: "2026-11-23T08:00:00Z")
        let reconciled = try #require(notes.last?.first { $0.hasPrefix("RECONCILED AFTER THE PAYMENT HAD FAILED") })
        #expect(!reconciled.contains("premature"), "\(reconciled)")
        #expect(notes.dropLast().joined().allSatisfy { !$0.hasPrefix("RECONCILED AFTER") })
    }
}

/// Hiding personal data must hide it however the field name is spelled, and change nothing else of the evidence.
@Suite("Payment audit: personal data")
struct PaymentAuditRedactionTests {
    @Test("encoded and capitalised names are redacted; every other byte stays as observed")
    func redact() {
        let raw = "sumupmerchant://pay/1.0?amount=8.00&title=Order 5&callbacksuccess=myshop%3A%2F%2Fcb%3Fx%3D1"
            + "&receipt%2Demail=bob%40example.com&Receipt-MobilePhone=%2B4915199999999&receipt-email=c@example.com#frag"
        let redacted = PaymentAudit.redact(raw)
        #expect(redacted == "sumupmerchant://pay/1.0?amount=8.00&title=Order 5&callbacksuccess=myshop%3A%2F%2Fcb%3Fx%3D1"
            + "&receipt%2Demail=REDACTED&Receipt-MobilePhone=REDACTED&receipt-email=REDACTED#frag")
        let clean = "sumupmerchant://pay/1.0?amount=8.00&title=Order 5&callbacksuccess=myshop%3A%2F%2Fcb%3Fx%3D1"
        #expect(PaymentAudit.redact(clean) == clean, "nothing personal: not a byte changed")
    }

    @Test("the audit without personal data hides an encoded receipt-email in the evidence and the reading")
    func audit() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let url = "sumupmerchant://pay/1.0?amount=8.00&currency=EUR&affiliate-key=k&foreign-tx-id=r1"
            + "&receipt%2Demail=bob%40example.com&receipt%2Dmobilephone=%2B4915199999999"
        let report = await workflow.ingest(lines: [
            #"{"kind":"request","payment":"pv1","at":"2026-11-22T10:00:00Z","app_version":"1.88.0","url":"\#(url)"}"#,
        ])
        #expect(report.accepted == 1, "\(report.errors)")
        let entry = try #require(try PaymentAudit.entries(of: "pv1", in: workflow.store, includePersonalData: false).first)
        #expect(entry.evidence?.contains("bob%40example.com") == false && entry.evidence?.contains("%2B4915199999999") == false)
        #expect(entry.evidence?.contains("receipt%2Demail=REDACTED") == true)
        #expect(entry.reading?.values.contains { $0.contains("example.com") || $0.contains("4915199999999") } == false)
        #expect(entry.notes.contains("personal data hidden"))
    }
}
