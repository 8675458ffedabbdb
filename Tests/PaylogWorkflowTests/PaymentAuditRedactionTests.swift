import Foundation
import PaylogDomain
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

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
