import Foundation
import PaylogDomain
import PaylogProviders
import Testing

/// The pure decide/evolve state machine, transition by transition.
@Suite("Payment state machine")
struct StateMachineTests {
    /// Decides and applies `command`, returning the events it produced.
    @discardableResult
    func run(_ command: PaymentCommand, on payment: inout Payment?, at: Int64 = 1_000_000) throws -> [PaymentEvent] {
        let events = try Payment.decide(command, for: payment, id: "p1", at: at)
        for event in events { Payment.evolve(&payment, id: "p1", event) }
        return events
    }

    func requested() throws -> Payment? {
        var payment: Payment?
        try run(.request(try WorkflowFixtures.squareRequest(payment: "p1", state: "st-1"), builtByPaylog: true), on: &payment)
        return payment
    }

    @Test("request → switch → online success: requested, switched, completed with the transaction id")
    func happyPath() throws {
        var payment = try requested()
        #expect(payment?.status == .requested)
        #expect(payment?.references == ["st-1"])
        try run(.switchApp(note: ""), on: &payment)
        #expect(payment?.status == .switched)
        let events = try run(.receiveCallback(try WorkflowFixtures.squareOnline(state: "st-1")), on: &payment)
        #expect(events.map(\.typeName) == ["CallbackReceived"])
        #expect(payment?.status == .completed)
        #expect(payment?.transactionID == "TX1")
        #expect(payment?.clientTransactionID == "CTX1")
        #expect(payment?.version == 3)
        // The same charge reported again in another URL (a further callback) is still one charge.
        let again = try WorkflowFixtures.squareCallback(#"{"status":"ok","transaction_id":"TX1","client_transaction_id":"CTX1","state":"st-1","extra":"1"}"#)
        #expect(try run(.receiveCallback(again), on: &payment).count == 1)
        #expect(payment?.firstCharge == "CTX1" && payment?.hadMultipleCharges == false)
    }

    @Test("a Square ok callback without transaction_id is offline: CallbackReceived then Offline with a 24 h window")
    func offline() throws {
        var payment = try requested()
        let events = try run(.receiveCallback(try WorkflowFixtures.squareOffline(state: "st-1", client: "C9")), on: &payment, at: 5_000_000)
        #expect(events.map(\.typeName) == ["CallbackReceived", "Offline"])
        #expect(payment?.status == .offline)
        let expected: Int64 = 5_000_000 + 24 * 3600 * 1_000_000
        #expect(payment?.offlineExpiresAtMicroseconds == expected)
        let line = ReconciliationLine(provider: .square, transactionID: "SQ-77", clientTransactionID: "C9",
                                      amount: Money(minorUnits: 500, currency: try CurrencyCode("USD")), rawLine: "{}")
        try run(.reconcile(line, matchedBy: "client_transaction_id"), on: &payment)
        #expect(payment?.status == .reconciled)
        #expect(payment?.transactionID == "SQ-77")
        #expect(payment?.hadAmountMismatch == false)
        #expect(try run(.reconcile(line, matchedBy: "client_transaction_id"), on: &payment).isEmpty, "the same report line twice appends nothing")
    }

    @Test("an offline success after an online one is recorded but does not send the payment back to offline, nor to expiry")
    func offlineAfterOnline() throws {
        var payment = try requested()
        try run(.receiveCallback(try WorkflowFixtures.squareOnline(state: "st-1")), on: &payment, at: 1_000_000)
        let events = try run(.receiveCallback(try WorkflowFixtures.squareOffline(state: "st-1", client: "C2")), on: &payment, at: 2_000_000)
        #expect(events.map(\.typeName) == ["CallbackReceived"])
        #expect(payment?.status == .completed && payment?.transactionID == "TX1")
        #expect(payment?.offlineExpiresAtMicroseconds == nil)
        #expect(payment?.firstCharge == "CTX1" && payment?.hadMultipleCharges == true, "a second charge on the device")
        #expect(try run(.expire(nowMicroseconds: .max), on: &payment).isEmpty)
        #expect(payment?.status == .completed)
    }

    @Test("a different report line with the transaction id that reconciled the payment is recorded, then recognised")
    func furtherReportLine() throws {
        var payment = try requested()
        try run(.receiveCallback(try WorkflowFixtures.squareOffline(state: "st-1", client: "C9")), on: &payment)
        let usd = try CurrencyCode("USD")
        let first = ReconciliationLine(provider: .square, transactionID: "SQ-77", clientTransactionID: "C9",
                                       amount: Money(minorUnits: 500, currency: usd), rawLine: #"{"amount":"5.00"}"#)
        let corrected = ReconciliationLine(provider: .square, transactionID: "SQ-77", clientTransactionID: "C9",
                                           amount: Money(minorUnits: 5_000, currency: usd), rawLine: #"{"amount":"50.00"}"#)
        try run(.reconcile(first, matchedBy: "client_transaction_id"), on: &payment)
        let events = try run(.reconcile(corrected, matchedBy: "client_transaction_id"), on: &payment)
        guard case .reconciled(let recorded)? = events.first, events.count == 1 else {
            Issue.record("expected one Reconciled event, got \(events)")
            return
        }
        #expect(recorded.reportLine == corrected.rawLine && recorded.amount == corrected.amount)
        #expect(recorded.amountMismatch, "the request was for 5.00 USD")
        #expect([payment?.firstReportedCharge].compactMap { $0 } + (payment?.laterReportedCharges ?? []) == [
            ReportedCharge(transactionID: "SQ-77", amount: first.amount), ReportedCharge(transactionID: "SQ-77", amount: corrected.amount),
        ])
        #expect(payment?.hadAmountMismatch == true)
        #expect(try run(.reconcile(corrected, matchedBy: "client_transaction_id"), on: &payment).isEmpty)
        #expect(try run(.reconcile(first, matchedBy: "client_transaction_id"), on: &payment).isEmpty)
        var rewrapped = first
        rewrapped.rawLine = #"{"amount" : "5.00", "kind" : "reconcile"}"#
        #expect(try run(.reconcile(rewrapped, matchedBy: "client_transaction_id"), on: &payment).isEmpty,
                "the same transaction and amount in another wrapping is the same row")
        #expect(payment?.version == 5)
    }

    @Test("an error callback fails the payment with the provider's raw error code")
    func errorCallback() throws {
        var payment = try requested()
        let events = try run(.receiveCallback(try WorkflowFixtures.squareError(state: "st-1", code: "some_future_code")), on: &payment)
        #expect(events.map(\.typeName) == ["CallbackReceived", "Failed"])
        #expect(payment?.status == .failed)
        #expect(payment?.errorCode == "some_future_code")
    }

    @Test("an identical callback delivered again is recorded as a redelivery and changes nothing else")
    func duplicateCallback() throws {
        var payment = try requested()
        let callback = try WorkflowFixtures.squareOnline(state: "st-1")
        try run(.receiveCallback(callback), on: &payment)
        let before = try #require(payment)
        let events = try run(.receiveCallback(callback), on: &payment)
        guard case .callbackReceived(let again)? = events.first, events.count == 1 else {
            Issue.record("expected one CallbackReceived, got \(events)")
            return
        }
        #expect(again.isRedelivery && again.isRepeat && !again.isLate && !again.contradictsEarlier)
        #expect(again.callbackURL == callback.rawURL, "the delivery's own URL, as observed")
        var expected = before
        expected.version += 1
        #expect(payment == expected, "only the version moves")
        #expect(payment?.callbackFingerprints == [CallbackFingerprint(rawURL: callback.rawURL)])
    }

    @Test("a different second callback is recorded and flagged; a failure after success does not undo it")
    func conflictingCallback() throws {
        var payment = try requested()
        try run(.receiveCallback(try WorkflowFixtures.squareOnline(state: "st-1")), on: &payment)
        let events = try run(.receiveCallback(try WorkflowFixtures.squareError(state: "st-1")), on: &payment)
        #expect(events.map(\.typeName) == ["CallbackReceived"])
        guard case .callbackReceived(let callback) = events[0] else { Issue.record("expected a callback"); return }
        #expect(callback.isRepeat && callback.contradictsEarlier && !callback.isLate)
        #expect(payment?.status == .completed)
        #expect(payment?.hadContradictingCallbacks == true)
    }

    @Test("a success after our timeout is a late success: recorded, flagged, and it moves the payment on")
    func lateSuccess() throws {
        var payment = try requested()
        try run(.fail(reason: "timeout after 120 s"), on: &payment)
        #expect(payment?.status == .failed)
        let events = try run(.receiveCallback(try WorkflowFixtures.squareOnline(state: "st-1")), on: &payment)
        guard case .callbackReceived(let callback)? = events.first else { Issue.record("expected a callback"); return }
        #expect(callback.isLate)
        #expect(payment?.status == .completed)
        #expect(payment?.hadLateCallback == true)
    }

    @Test("failing: a completed payment refuses; a failed one records the further failure, which changes nothing else")
    func failRules() throws {
        var payment = try requested()
        try run(.receiveCallback(try WorkflowFixtures.squareOnline(state: "st-1")), on: &payment)
        #expect(throws: PaymentRejection.alreadySucceeded(payment: "p1", status: .completed)) {
            try run(.fail(reason: "x"), on: &payment)
        }
        var other = try requested()
        try run(.fail(reason: "x"), on: &other)
        let first = try #require(other)
        let again = try run(.fail(reason: "again"), on: &other)
        #expect(again == [.failed(Failed(source: .operator_, errorCode: nil, reason: "again", repeatsFailure: true))])
        // The first failure stands: everything but the version is as it was.
        var expected = first
        expected.version += 1
        #expect(other == expected)
        #expect(other?.failureReason == "x" && other?.status == .failed)
    }

    @Test("expire fails an offline payment only after its window closed")
    func expire() throws {
        var payment = try requested()
        try run(.receiveCallback(try WorkflowFixtures.squareOffline(state: "st-1", client: "C1")), on: &payment, at: 0)
        let window = Payment.offlineWindowMicroseconds(.square)!
        #expect(try run(.expire(nowMicroseconds: window - 1), on: &payment).isEmpty)
        let events = try run(.expire(nowMicroseconds: window), on: &payment)
        guard case .failed(let failed)? = events.first else { Issue.record("expected Failed"); return }
        #expect(failed.source == .expiry)
        #expect(payment?.status == .failed)
    }

    @Test("commands other than request on an unknown payment are refused")
    func unknownPayment() throws {
        #expect(throws: PaymentRejection.unknownPayment("p1")) {
            _ = try Payment.decide(.switchApp(note: ""), for: nil, id: "p1", at: nil)
        }
    }
}
