import Foundation
import PaylogDomain
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

/// A callback delivered again is evidence of its own (provider-contracts §5: duplicated callbacks must be kept),
/// while the same observation ingested again is recognised and recorded once.
@Suite("Callbacks delivered again")
struct RedeliveryTests {
    static let lines = [
        #"{"kind":"request","payment":"pay-1","at":"2026-11-21T09:00:00Z","app_version":"1.88.0","url":"sumupmerchant://pay/1.0?amount=12.50&currency=EUR&affiliate-key=k&foreign-tx-id=ref-1&callbacksuccess=myshop%3A%2F%2Fok"}"#,
        #"{"kind":"callback","at":"2026-11-21T09:00:30Z","url":"myshop://ok?smp-status=success&smp-tx-code=TX1&foreign-tx-id=ref-1"}"#,
        #"{"kind":"callback","at":"2026-11-21T09:02:00Z","url":"myshop://ok?smp-status=success&smp-tx-code=TX1&foreign-tx-id=ref-1"}"#,
    ]

    @Test("the second delivery is recorded, noted in the audit, folds to the same view, and a re-ingest appends nothing")
    func recordedOnceEach() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let first = await workflow.ingest(lines: Self.lines)
        #expect(first.rejected == 0 && first.eventsAppended == 3, "\(first.errors)")
        let payment = try #require(try PaymentsProjection.payment("pay-1", in: workflow.store))
        #expect(payment.version == 3 && payment.status == .completed && payment.callbackFingerprints.count == 1)
        #expect(!payment.hadContradictingCallbacks && !payment.hadMultipleCharges && !payment.hadLateCallback)
        let entries = try PaymentAudit.entries(of: "pay-1", in: workflow.store)
        #expect(entries.map { $0.notes.contains(PaymentAudit.redeliveryNote) } == [false, false, true])
        #expect(entries.last?.evidence == "myshop://ok?smp-status=success&smp-tx-code=TX1&foreign-tx-id=ref-1")
        #expect(try LogReplay.run(workflow.store).projectionsMatch)
        let again = await workflow.ingest(lines: Self.lines)
        #expect(again.rejected == 0 && again.eventsAppended == 0, "the same observations, recognised by their ids")
    }
}
