import Foundation
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

/// A value too long to index (a 600-character transaction code) must not keep its observation out of the log: the
/// event is recorded with the value as observed, and only routing by it is lost.
@Suite("Routing keys longer than the store indexes")
struct RoutingKeyLimitTests {
    @Test("a callback with a 600-character smp-tx-code and a request with a 477-character foreign-tx-id are recorded")
    func recorded() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let longCode = String(repeating: "T", count: 600)
        let longReference = String(repeating: "r", count: 477)
        func request(_ id: String, reference: String) -> String {
            let url = "sumupmerchant://pay/1.0?amount=5.00&currency=EUR&affiliate-key=AK&foreign-tx-id=\(reference)"
                + "&callbacksuccess=myshop%3A%2F%2Fok%3Fpaylog_payment%3D\(id)&callbackfail=myshop%3A%2F%2Ffail"
            return #"{"kind":"request","payment":"\#(id)","at":"2026-11-21T09:00:00Z","app_version":"1.88.0","url":"\#(url)"}"#
        }
        let report = await workflow.ingest(lines: [
            request("q4", reference: "ref-q4"),
            #"{"kind":"callback","at":"2026-11-21T09:01:00Z","url":"myshop://ok?paylog_payment=q4&smp-status=success&smp-tx-code=\#(longCode)"}"#,
            request("q5", reference: longReference),
            #"{"kind":"callback","at":"2026-11-21T09:01:00Z","url":"myshop://ok?paylog_payment=q5&smp-status=success&smp-tx-code=TX5"}"#,
        ])
        #expect(report.rejected == 0, "\(report.errors)")
        #expect(report.eventsAppended == 4)
        let q4 = try #require(try PaymentsProjection.payment("q4", in: workflow.store))
        #expect(q4.status == .completed && q4.transactionID == longCode)
        #expect(try PaymentsProjection.route("tx:" + longCode, in: workflow.store) == nil, "not indexed")
        #expect(try PaymentsProjection.payment("q5", in: workflow.store)?.status == .completed)
        #expect(try PaymentsProjection.route("tx:TX5", in: workflow.store) == "q5", "the short keys are indexed as usual")
        #expect(try workflow.store.verifyChain().isIntact)
    }
}
