import Foundation
import PaylogDomain
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

/// The status view's facts that analytics and the flags rest on, for histories a clean day does not have:
/// callbacks recorded out of order, late failures, an expiry after a provider's error.
@Suite("Payment state for out-of-order and late histories")
struct PaymentEvolveOrderTests {
    static func sumUp(_ id: String) -> String {
        let url = "sumupmerchant://pay/1.0?amount=12.50&currency=EUR&affiliate-key=k&foreign-tx-id=\(id).ref"
            + "&callbacksuccess=myshop%3A%2F%2Fcb&callbackfail=myshop%3A%2F%2Fcb"
        return #"{"kind":"request","payment":"\#(id)","at":"2026-11-21T11:00:00Z","app_version":"1.88.0","url":"\#(url)"}"#
    }

    static func callback(_ id: String, _ status: String, at time: String) -> String {
        #"{"kind":"callback","payment":"\#(id)","at":"\#(time)","url":"myshop://cb?smp-status=\#(status)&smp-tx-code=TX-\#(id)-\#(status)&foreign-tx-id=\#(id).ref"}"#
    }

    static func payments(_ lines: [String]) async throws -> (store: [String: Payment], cells: [AnalyticsCell]) {
        try await RecordedDay.with(lines) { workflow in
            var payments: [String: Payment] = [:]
            for payment in try PaymentsProjection.payments(in: workflow.store) { payments[payment.id] = payment }
            return (payments, try Analytics.cells(in: workflow.store))
        }
    }

    @Test("the first callback time is the earliest observed, whatever order the callbacks were recorded in")
    func firstCallbackObserved() async throws {
        let (payments, cells) = try await Self.payments([
            Self.sumUp("p3"), Self.callback("p3", "success", at: "2026-11-21T11:10:00Z"),
            Self.callback("p3", "failed", at: "2026-11-21T11:00:05Z"),
        ])
        let start = try #require(Timestamp(rfc3339: "2026-11-21T11:00:05Z")).microseconds
        #expect(payments["p3"]?.firstCallbackAtMicroseconds == start)
        #expect(cells.first?.requestToCallbackMs.valueAtPercentile(50) ?? 0 < 6_000)
    }

    @Test("late_callback marks a late success only; a late failure charged nobody")
    func lateFlag() async throws {
        let fail = { (id: String) in #"{"kind":"fail","payment":"\#(id)","at":"2026-11-21T11:05:00Z","reason":"timeout"}"# }
        let (payments, _) = try await Self.payments([
            Self.sumUp("won"), fail("won"), Self.callback("won", "success", at: "2026-11-21T11:06:00Z"),
            Self.sumUp("lost"), fail("lost"), Self.callback("lost", "failed", at: "2026-11-21T11:06:00Z"),
        ])
        #expect(payments["won"]?.hadLateCallback == true)
        #expect(payments["lost"]?.hadLateCallback == false)
        #expect(payments["lost"]?.status == .failed)
    }

    @Test("an offline payment that expires fails with no error code, not an earlier callback's")
    func expiryCode() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        func percent(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
        let data = #"{"version":"1.3","client_id":"C","amount_money":{"amount":500,"currency_code":"USD"},"callback_url":"myapp://cb","state":"st-2","options":{"supported_tender_types":["CREDIT_CARD"]}}"#
        let report = await workflow.ingest(lines: [
            #"{"kind":"request","payment":"p2","at":"2026-11-21T09:00:00Z","url":"square-commerce-v1://payment/create?data=\#(percent(data))"}"#,
            #"{"kind":"callback","at":"2026-11-21T09:00:30Z","url":"myapp://cb?data=\#(percent(#"{"status":"error","error_code":"could_not_perform","state":"st-2"}"#))"}"#,
            #"{"kind":"callback","at":"2026-11-21T09:01:00Z","url":"myapp://cb?data=\#(percent(#"{"status":"ok","client_transaction_id":"CTX-2","state":"st-2"}"#))"}"#,
        ])
        #expect(report.rejected == 0, "\(report.errors)")
        _ = try await workflow.expireOffline(now: try #require(Timestamp(rfc3339: "2026-11-23T00:00:00Z")))
        let payment = try #require(try PaymentsProjection.payment("p2", in: workflow.store))
        #expect(payment.status == .failed)
        #expect(payment.errorCode == nil, "\(payment.errorCode ?? "")")
        #expect(try Analytics.cells(in: workflow.store).first?.failureCodes == [FailureCode(nil): 1])
    }
}
