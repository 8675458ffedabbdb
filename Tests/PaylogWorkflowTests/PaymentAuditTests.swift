import Foundation
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
