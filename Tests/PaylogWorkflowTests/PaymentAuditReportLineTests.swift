import Foundation
import PaylogDomain
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

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

    @Test("a report line with a negative or zero amount is recorded, reconciles nothing, is no further charge, and the audit says so")
    func nonPositiveAmount() async throws {
        let fail = #"{"kind":"fail","payment":"p1","at":"2026-11-21T09:05:00Z","reason":"no callback in 5 min"}"#
        // Paid and reconciled, then refunded: still reconciled, one charge, the charge's transaction id.
        let (notes, paid) = try await RecordedDay.with([
            PaymentAuditTests.request, PaymentAuditTests.callback(at: "2026-11-21T09:01:00Z"),
            Self.line("TX1", minor: 1_000), Self.line("TX9", minor: -1_000), Self.line("TX8", minor: 0),
            Self.line("TX9", minor: -1_000).replacingOccurrences(of: "2026-11-22T08:00:00Z", with: "2026-11-23T08:00:00Z"),
        ]) { workflow in
            (try PaymentAudit.entries(of: "p1", in: workflow.store).filter { $0.event.type == "Reconciled" }.map(\.notes),
             try #require(try PaymentsProjection.payment("p1", in: workflow.store)))
        }
        #expect(notes.count == 3, "the refund's line again, observed later, is recognised: \(notes)")
        #expect(notes[0].allSatisfy { !$0.hasPrefix("THE REPORTED AMOUNT") }, "\(notes[0])")
        #expect(notes[1].contains { $0.hasPrefix("THE REPORTED AMOUNT IS NEGATIVE (-10.00 EUR): not a charge, so it reconciles nothing") }, "\(notes[1])")
        #expect(notes[2].contains { $0.hasPrefix("THE REPORTED AMOUNT IS ZERO (0.00 EUR): not a charge") }, "\(notes[2])")
        #expect(notes.dropFirst().joined().allSatisfy { !$0.hasPrefix("ANOTHER CHARGE") && !$0.hasPrefix("AMOUNT MISMATCH") })
        #expect(paid.status == .reconciled && paid.transactionID == "TX1")
        #expect(!paid.hadMultipleCharges && !paid.hadAmountMismatch)
        #expect(paid.version == 5, "request, callback and three lines")

        // Failed, then a refund line: the payment stays failed; no money was taken.
        let failed = try await RecordedDay.with([PaymentAuditTests.request, fail, Self.line("TX9", minor: -1_000)]) { workflow in
            try #require(try PaymentsProjection.payment("p1", in: workflow.store))
        }
        #expect(failed.status == .failed && failed.transactionID == nil && !failed.reconciledWhileFailed)
        #expect(failed.version == 3)
        // Nor is it evidence of payment: no reconciliation or first-success time (analytics, `observed_before_success`).
        #expect(failed.reconciledAtMicroseconds == nil && failed.firstSuccessAtMicroseconds == nil)
    }
}
