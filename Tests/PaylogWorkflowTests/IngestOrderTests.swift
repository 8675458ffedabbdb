import Foundation
import PaylogDomain
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

/// The same facts must read the same whatever order they are ingested in: a callback recorded after the report line
/// that reconciled its payment is late exactly when it would have been late recorded before it, and a report line
/// matched by an id a callback returned is judged against the attempt that callback answered.
@Suite("Ingest order and attempts")
struct IngestOrderTests {
    /// A SumUp payment timed out, retried, and the retry's own success and report line: nothing is late.
    static let retried = [
            #"{"kind":"request","payment":"pay-1","at":"2026-11-21T09:00:00Z","url":"sumupmerchant://pay/1.0?affiliate-key=k&app-id=com.shop&total=12.50&currency=EUR&title=Coffee&foreign-tx-id=ref-1&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail","app_version":"1.88.0"}"#,
            #"{"kind":"fail","payment":"pay-1","at":"2026-11-21T09:05:00Z","reason":"no callback within 120 s"}"#,
            #"{"kind":"request","payment":"pay-1","at":"2026-11-21T09:06:00Z","url":"sumupmerchant://pay/1.0?affiliate-key=k&app-id=com.shop&total=12.50&currency=EUR&title=Coffee&foreign-tx-id=ref-2&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail","app_version":"1.88.0"}"#,
            #"{"kind":"callback","at":"2026-11-21T09:06:31Z","url":"myshop://ok?smp-status=success&smp-tx-code=TX2&foreign-tx-id=ref-2"}"#,
            #"{"kind":"reconcile","at":"2026-11-22T08:00:00Z","provider":"sumup","transaction_id":"TX2","foreign_tx_id":"ref-2","amount_minor":1250,"currency":"EUR"}"#
    ]

    /// A Square offline success, failed by the operator, then the online success and the report line: late.
    static let failedOffline = [
            #"{"kind": "request", "payment": "pay-3", "at": "2026-11-21T09:00:00Z", "url": "square-commerce-v1://payment/create?data=%7B%22amount_money%22%3A%7B%22amount%22%3A1000%2C%22currency_code%22%3A%22USD%22%7D%2C%22callback_url%22%3A%22myshop%3A%2F%2Fcb%22%2C%22client_id%22%3A%22cid%22%2C%22version%22%3A%221.3%22%2C%22notes%22%3A%22n%22%2C%22options%22%3A%7B%22supported_tender_types%22%3A%5B%22CREDIT_CARD%22%5D%7D%2C%22state%22%3A%22s3%22%7D"}"#,
            #"{"kind": "callback", "at": "2026-11-21T09:00:30Z", "url": "myshop://cb?data=%7B%22status%22%3A%22ok%22%2C%22client_transaction_id%22%3A%22CO%22%2C%22state%22%3A%22s3%22%7D"}"#,
            #"{"kind": "fail", "payment": "pay-3", "at": "2026-11-21T10:00:00Z", "reason": "declined at upload?"}"#,
            #"{"kind": "callback", "at": "2026-11-21T10:05:00Z", "url": "myshop://cb?data=%7B%22status%22%3A%22ok%22%2C%22transaction_id%22%3A%22TX3%22%2C%22client_transaction_id%22%3A%22CO%22%2C%22state%22%3A%22s3%22%7D"}"#,
            #"{"kind": "reconcile", "at": "2026-11-22T08:00:00Z", "provider": "square", "transaction_id": "TX3", "client_transaction_id": "CO", "amount_minor": 1000, "currency": "USD"}"#
    ]

    /// A SumUp payment failed by the operator, then a late "declined" callback, a late success and the report line.
    static let declinedThenCharged = [
            #"{"kind":"request","payment":"pay-1","at":"2026-11-21T09:00:00Z","url":"sumupmerchant://pay/1.0?affiliate-key=k&app-id=com.shop&amount=12.50&currency=EUR&title=Coffee&foreign-tx-id=ref-1&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail","app_version":"1.88.0"}"#,
            #"{"kind":"fail","payment":"pay-1","at":"2026-11-21T09:05:00Z","reason":"no callback within 120 s"}"#,
            #"{"kind":"callback","at":"2026-11-21T09:05:30Z","url":"myshop://fail?smp-status=failed&smp-failure-cause=declined&foreign-tx-id=ref-1"}"#,
            #"{"kind":"callback","at":"2026-11-21T09:06:31Z","url":"myshop://ok?smp-status=success&smp-tx-code=TX1&foreign-tx-id=ref-1"}"#,
            #"{"kind":"reconcile","at":"2026-11-22T08:00:00Z","provider":"sumup","transaction_id":"TX1","transaction_code":"TX1","foreign_tx_id":"ref-1","amount_minor":1250,"currency":"EUR"}"#,
    ]

    /// A Square payment retried at another amount; both attempts' successes, then the report lines.
    static let squareRetry = [
            #"{"kind": "request", "payment": "pay-2", "at": "2026-11-21T09:00:00Z", "url": "square-commerce-v1://payment/create?data=%7B%22amount_money%22%3A%7B%22amount%22%3A1000%2C%22currency_code%22%3A%22USD%22%7D%2C%22callback_url%22%3A%22myshop%3A%2F%2Fcb%22%2C%22client_id%22%3A%22cid%22%2C%22version%22%3A%221.3%22%2C%22notes%22%3A%22n%22%2C%22options%22%3A%7B%22supported_tender_types%22%3A%5B%22CREDIT_CARD%22%5D%7D%2C%22state%22%3A%22s1%22%7D"}"#,
            #"{"kind": "fail", "payment": "pay-2", "at": "2026-11-21T09:05:00Z", "reason": "timeout"}"#,
            #"{"kind": "request", "payment": "pay-2", "at": "2026-11-21T09:06:00Z", "url": "square-commerce-v1://payment/create?data=%7B%22amount_money%22%3A%7B%22amount%22%3A1200%2C%22currency_code%22%3A%22USD%22%7D%2C%22callback_url%22%3A%22myshop%3A%2F%2Fcb%22%2C%22client_id%22%3A%22cid%22%2C%22version%22%3A%221.3%22%2C%22notes%22%3A%22n%22%2C%22options%22%3A%7B%22supported_tender_types%22%3A%5B%22CREDIT_CARD%22%5D%7D%2C%22state%22%3A%22s2%22%7D"}"#,
            #"{"kind": "callback", "at": "2026-11-21T09:06:30Z", "url": "myshop://cb?data=%7B%22status%22%3A%22ok%22%2C%22transaction_id%22%3A%22TXB%22%2C%22client_transaction_id%22%3A%22CB%22%2C%22state%22%3A%22s2%22%7D"}"#,
            #"{"kind": "callback", "at": "2026-11-21T09:07:00Z", "url": "myshop://cb?data=%7B%22status%22%3A%22ok%22%2C%22transaction_id%22%3A%22TXA%22%2C%22client_transaction_id%22%3A%22CA%22%2C%22state%22%3A%22s1%22%7D"}"#,
            #"{"kind": "reconcile", "at": "2026-11-22T08:00:00Z", "provider": "square", "transaction_id": "TXA", "client_transaction_id": "CA", "amount_minor": 1000, "currency": "USD"}"#,
            #"{"kind": "reconcile", "at": "2026-11-22T08:00:01Z", "provider": "square", "transaction_id": "TXB", "client_transaction_id": "CB", "amount_minor": 1200, "currency": "USD"}"#
    ]

    /// The payment `lines` leave, in a new store.
    static func payment(_ id: String, after lines: [String]) async throws -> Payment? {
        try await RecordedDay.with(lines) { workflow in try PaymentsProjection.payment(id, in: workflow.store) }
    }

    /// `lines` with the callback before the last line (a report line) moved after it.
    static func reportFirst(_ lines: [String]) -> [String] {
        var lines = lines
        let report = lines.removeLast()
        let callback = lines.removeLast()
        return lines + [report, callback]
    }

    @Test("late_callback is the same with the report line ingested before the callback or after it")
    func lateWhateverTheOrder() async throws {
        for (id, lines, late) in [("pay-1", Self.retried, false), ("pay-3", Self.failedOffline, true)] {
            let callbackFirst = try #require(try await Self.payment(id, after: lines))
            let reportFirst = try #require(try await Self.payment(id, after: Self.reportFirst(lines)))
            #expect(callbackFirst.hadLateCallback == late, "\(id), callback first")
            #expect(reportFirst.hadLateCallback == late, "\(id), report line first")
            #expect(callbackFirst.status == .reconciled && reportFirst.status == .reconciled)
        }
    }

    @Test("a failure callback between the report line and the success does not make the success on time")
    func lateAcrossAFailureCallback() async throws {
        // The report line (last) recorded after the failure, after the failure callback, or after both callbacks.
        for position in 2...4 {
            var lines = Self.declinedThenCharged
            lines.insert(lines.removeLast(), at: position)
            let payment = try #require(try await Self.payment("pay-1", after: lines))
            #expect(payment.hadLateCallback, "report line at \(position)")
            #expect(payment.status == .reconciled)
        }
    }

    /// A SumUp payment paid at 09:01:30, given up on by the till at 09:02:00 (it never saw the callback), and the
    /// next day's report line; `callbackAt` moves the callback's observed time.
    static func paidThenGivenUp(callbackAt: String) -> (request: String, callback: String, fail: String, report: String) {
        (
            #"{"kind":"request","payment":"pay-4","at":"2026-11-21T09:00:00Z","url":"sumupmerchant://pay/1.0?affiliate-key=k&app-id=com.shop&total=8.00&currency=EUR&title=Tea&foreign-tx-id=ref-4&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail","app_version":"1.88.0"}"#,
            #"{"kind":"callback","at":"\#(callbackAt)","url":"myshop://ok?smp-status=success&smp-tx-code=TX4&foreign-tx-id=ref-4"}"#,
            #"{"kind":"fail","payment":"pay-4","at":"2026-11-21T09:02:00Z","reason":"no callback within 120 s"}"#,
            #"{"kind":"reconcile","at":"2026-11-22T08:00:00Z","provider":"sumup","transaction_id":"TX4","foreign_tx_id":"ref-4","amount_minor":800,"currency":"EUR"}"#
        )
    }

    /// Ingests `lines` into a new store and returns the payment, how many lines were rejected, and whether a rebuild
    /// of the views from the log gives the live view back.
    static func ingest(_ lines: [String]) async throws -> (payment: Payment, rejected: Int, rebuildMatches: Bool) {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let report = await workflow.ingest(lines: lines)
        let payment = try #require(try PaymentsProjection.payment("pay-4", in: workflow.store))
        return (payment, report.rejected, try LogReplay.run(workflow.store).projectionsMatch)
    }

    @Test("a success observed before a failure that was observed before the report line is on time: in the order observed, and with the failure recorded after the report line")
    func successBeforeAPrematureFailure() async throws {
        let day = Self.paidThenGivenUp(callbackAt: "2026-11-21T09:01:30Z")
        // In the order observed the failure comes after the success and is refused; recorded after the report line it
        // is evidence observed before the report, and the callback recorded last was still observed before it.
        let observedOrder = try await Self.ingest([day.request, day.callback, day.fail, day.report])
        let reportFirst = try await Self.ingest([day.request, day.report, day.fail, day.callback])
        #expect(observedOrder.rejected == 1 && reportFirst.rejected == 0)
        for (order, result) in [("observed order", observedOrder), ("report line first", reportFirst)] {
            #expect(!result.payment.hadLateCallback, "\(order)")
            #expect(result.payment.status == .reconciled, "\(order)")
            #expect(result.rebuildMatches, "\(order): the rebuild folds the failure's time as the live view did")
        }
        // Before the callback, the payment keeps the failure's time, in the live view and the rebuilt one alike.
        let beforeCallback = try await Self.ingest([day.request, day.report, day.fail])
        #expect(beforeCallback.payment.failedBeforeSuccessAtMicroseconds == 1_795_251_720_000_000)
        #expect(beforeCallback.payment.reconciledWhileFailed && beforeCallback.rebuildMatches)
    }

    @Test("two failures observed before the report line: a success between them is late from the earlier, as observed")
    func successBetweenTwoPrematureFailures() async throws {
        let day = Self.paidThenGivenUp(callbackAt: "2026-11-21T09:01:30Z")
        let earlier = #"{"kind":"fail","payment":"pay-4","at":"2026-11-21T09:01:00Z","reason":"cancelled at the till"}"#
        // As observed: the 09:01 failure fails the payment, its success at 09:01:30 is late, the 09:02 one is refused.
        let observedOrder = try await Self.ingest([day.request, earlier, day.callback, day.fail, day.report])
        // Both failures after the report line, the later-observed first; the callback last.
        let reportFirst = try await Self.ingest([day.request, day.report, day.fail, earlier, day.callback])
        #expect(observedOrder.rejected == 1 && reportFirst.rejected == 0)
        for (order, result) in [("observed order", observedOrder), ("report line first", reportFirst)] {
            #expect(result.payment.hadLateCallback, "\(order)")
            #expect(result.payment.status == .reconciled, "\(order)")
            #expect(result.rebuildMatches, "\(order)")
        }
    }

    @Test("a success observed after a failure that was observed before the report line is late in both orders")
    func successAfterAPrematureFailure() async throws {
        let day = Self.paidThenGivenUp(callbackAt: "2026-11-21T09:03:00Z")
        let observedOrder = try await Self.ingest([day.request, day.fail, day.callback, day.report])
        let reportFirst = try await Self.ingest([day.request, day.report, day.fail, day.callback])
        for (order, result) in [("observed order", observedOrder), ("report line first", reportFirst)] {
            #expect(result.rejected == 0, "\(order)")
            #expect(result.payment.hadLateCallback, "\(order)")
            #expect(result.payment.status == .reconciled, "\(order)")
            #expect(result.rebuildMatches, "\(order)")
        }
    }

    @Test("an earlier attempt's decline arriving during the retry contradicts nothing, the log's rebuild agrees, and the audit says whose it is")
    func earlierAttemptsDecline() async throws {
        var lines = Self.retried
        // Attempt 1's decline (reference ref-1), after the retry (ref-2) was requested and before its success.
        lines.insert(
            #"{"kind":"callback","at":"2026-11-21T09:06:10Z","url":"myshop://fail?smp-status=failed&smp-failure-cause=declined&foreign-tx-id=ref-1"}"#,
            at: 3)
        try await RecordedDay.with(lines) { workflow in
            let payment = try #require(try PaymentsProjection.payment("pay-1", in: workflow.store))
            #expect(payment.status == .reconciled && !payment.hadContradictingCallbacks && !payment.hadLateCallback)
            let report = try LogReplay.run(workflow.store)
            #expect(report.projectionsMatch, "the rebuild's fold reads the recorded field as the live decision did")
            let notes = try PaymentAudit.entries(of: "pay-1", in: workflow.store).flatMap(\.notes)
            #expect(notes.contains { $0.hasPrefix("answers an earlier attempt (reference ref-1)") }, "\(notes)")
            #expect(!notes.contains { $0.contains("CONTRADICTS") }, "\(notes)")
        }
    }

    @Test("a Square line matched by client_transaction_id is judged against the attempt whose state its callback echoed")
    func squareAttemptAmount() async throws {
        let payment = try #require(try await Self.payment("pay-2", after: Self.squareRetry))
        #expect(payment.hadAmountMismatch == false, "CA (state s1) asked 10.00 and reports 10.00; CB (s2) 12.00 and 12.00")
        #expect(payment.hadMultipleCharges)
        var overcharged = Self.squareRetry
        overcharged[5] = overcharged[5].replacingOccurrences(of: #""amount_minor": 1000"#, with: #""amount_minor": 1200"#)
        let charged = try #require(try await Self.payment("pay-2", after: overcharged))
        #expect(charged.hadAmountMismatch, "CA's attempt asked 10.00, the report says 12.00")
    }
}
