import Foundation
import PaylogDomain
import PaylogProviders
import Testing

/// The remaining transitions of the state machine and the provider-specific failure codes.
@Suite("Payment state machine: edges")
struct StateMachineEdgeTests {
    @discardableResult
    func run(_ command: PaymentCommand, on payment: inout Payment?, id: String = "p1", at: Int64 = 1_000_000) throws -> [PaymentEvent] {
        let events = try Payment.decide(command, for: payment, id: id, at: at)
        for event in events { Payment.evolve(&payment, id: id, event) }
        return events
    }

    func sumupRequest(reference: String) throws -> LaunchRequest {
        try Providers.parseLaunch(
            "sumupmerchant://pay/1.0?amount=10.00&currency=EUR&affiliate-key=AK&title=T&foreign-tx-id=\(reference)&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail",
            appVersion: "1.88.0")
    }

    @Test("a report line for a payment we had failed reconciles it: the money was taken after all")
    func failedThenReconciled() throws {
        var payment: Payment?
        try run(.request(try sumupRequest(reference: "r1"), builtByPaylog: false), on: &payment)
        try run(.fail(reason: "timeout"), on: &payment)
        let line = ReconciliationLine(provider: .sumup, transactionID: "T1", foreignTransactionID: "r1",
                                      amount: Money(minorUnits: 1200, currency: try CurrencyCode("EUR")), rawLine: "{}")
        try run(.reconcile(line, matchedBy: "foreign_tx_id"), on: &payment)
        #expect(payment?.status == .reconciled)
        #expect(payment?.hadAmountMismatch == true, "10.00 requested, 12.00 on the report")
    }

    @Test("a success callback recorded after the report line that reconciled a failed payment is still late")
    func lateAfterReconciled() throws {
        var payment: Payment?
        try run(.request(try sumupRequest(reference: "r1"), builtByPaylog: false), on: &payment)
        try run(.fail(reason: "timeout"), on: &payment)
        let line = ReconciliationLine(provider: .sumup, transactionID: "T1", foreignTransactionID: "r1", rawLine: "{}")
        try run(.reconcile(line, matchedBy: "foreign_tx_id"), on: &payment)
        let success = try Providers.parseCallback("myshop://ok?smp-status=success&smp-tx-code=T1&foreign-tx-id=r1", provider: .sumup)
        let events = try run(.receiveCallback(success), on: &payment)
        guard case .callbackReceived(let callback)? = events.first else {
            Issue.record("expected a callback, got \(events)")
            return
        }
        #expect(callback.isLate, "the same facts ingested callback-first are late")
        #expect(payment?.hadLateCallback == true && payment?.status == .reconciled)
        // Once a success is in, a further one is not late.
        let again = try Providers.parseCallback("myshop://ok?smp-status=success&smp-tx-code=T1&foreign-tx-id=r1&x=1", provider: .sumup)
        let next = try run(.receiveCallback(again), on: &payment)
        guard case .callbackReceived(let second)? = next.first else {
            Issue.record("expected a callback, got \(next)")
            return
        }
        #expect(!second.isLate)
    }

    @Test("an earlier attempt's failure arriving after the retry began is recorded but fails nothing; the retry's success is on time")
    func earlierAttemptsFailure() throws {
        var payment: Payment?
        try run(.request(try sumupRequest(reference: "r1"), builtByPaylog: false), on: &payment)
        try run(.fail(reason: "timeout"), on: &payment)
        try run(.request(try sumupRequest(reference: "r2"), builtByPaylog: false), on: &payment)
        let declined = try Providers.parseCallback("myshop://fail?smp-status=failed&foreign-tx-id=r1", provider: .sumup)
        let declinedEvents = try run(.receiveCallback(declined), on: &payment)
        #expect(declinedEvents.map(\.typeName) == ["CallbackReceived"])
        guard case .callbackReceived(let earlier)? = declinedEvents.first else { return }
        #expect(earlier.answersEarlierAttempt && !earlier.contradictsEarlier)
        #expect(payment?.status == .requested, "the retry is still in progress")
        #expect(payment?.lastCallbackSucceeded == nil, "the retry has had no callback of its own")
        let success = try Providers.parseCallback("myshop://ok?smp-status=success&smp-tx-code=T2&foreign-tx-id=r2", provider: .sumup)
        guard case .callbackReceived(let callback)? = try run(.receiveCallback(success), on: &payment).first else {
            Issue.record("no callback recorded")
            return
        }
        #expect(!callback.isLate && payment?.hadLateCallback == false && payment?.status == .completed)
        #expect(!callback.answersEarlierAttempt)
        #expect(!callback.contradictsEarlier && payment?.hadContradictingCallbacks == false,
                "the earlier attempt's decline does not contradict the retry's success")
        // The retry's own failure still fails it.
        var own: Payment?
        try run(.request(try sumupRequest(reference: "r1"), builtByPaylog: false), on: &own)
        try run(.request(try sumupRequest(reference: "r2"), builtByPaylog: false), on: &own)
        let ownFailure = try Providers.parseCallback("myshop://fail?smp-status=failed&foreign-tx-id=r2", provider: .sumup)
        #expect(try run(.receiveCallback(ownFailure), on: &own).map(\.typeName) == ["CallbackReceived", "Failed"])
    }

    @Test("a retry's success does not contradict the failed attempt before it; within one attempt it does")
    func retryIsNoContradiction() throws {
        let failure = try Providers.parseCallback("myshop://fail?smp-status=failed&foreign-tx-id=r1", provider: .sumup)
        var payment: Payment?
        try run(.request(try sumupRequest(reference: "r1"), builtByPaylog: false), on: &payment)
        try run(.receiveCallback(failure), on: &payment)
        try run(.request(try sumupRequest(reference: "r2"), builtByPaylog: false), on: &payment)
        let success = try Providers.parseCallback("myshop://ok?smp-status=success&smp-tx-code=T2&foreign-tx-id=r2", provider: .sumup)
        guard case .callbackReceived(let callback)? = try run(.receiveCallback(success), on: &payment).first else {
            Issue.record("no callback recorded")
            return
        }
        #expect(!callback.contradictsEarlier && payment?.hadContradictingCallbacks == false && payment?.status == .completed)
        // Without the retry, the same two callbacks contradict each other.
        var single: Payment?
        try run(.request(try sumupRequest(reference: "r1"), builtByPaylog: false), on: &single)
        try run(.receiveCallback(failure), on: &single)
        try run(.receiveCallback(success), on: &single)
        #expect(single?.hadContradictingCallbacks == true)
    }

    @Test("a new request after a failure starts a new attempt; after a success it is recorded but flagged")
    func reRequests() throws {
        var payment: Payment?
        try run(.request(try sumupRequest(reference: "r1"), builtByPaylog: false), on: &payment)
        try run(.fail(reason: "timeout"), on: &payment)
        try run(.request(try sumupRequest(reference: "r2"), builtByPaylog: false), on: &payment)
        #expect(payment?.status == .requested)
        #expect(payment?.references == ["r1", "r2"])
        try run(.receiveCallback(try Providers.parseCallback("myshop://ok?smp-status=success&smp-tx-code=T2&foreign-tx-id=r2", provider: .sumup)), on: &payment)
        #expect(payment?.status == .completed)
        try run(.request(try sumupRequest(reference: "r3"), builtByPaylog: false), on: &payment)
        #expect(payment?.status == .completed)
        #expect(payment?.hadRequestAfterSuccess == true)
    }

    @Test("SumUp failed and invalidstate fail the payment with the raw smp-status as the error code",
          arguments: ["failed", "invalidstate"])
    func sumupFailures(status: String) throws {
        var payment: Payment?
        try run(.request(try sumupRequest(reference: "r1"), builtByPaylog: false), on: &payment)
        let outcome = try Providers.parseCallback("myshop://fail?smp-status=\(status)&foreign-tx-id=r1", provider: .sumup)
        let events = try run(.receiveCallback(outcome), on: &payment)
        #expect(events.map(\.typeName) == ["CallbackReceived", "Failed"])
        #expect(payment?.status == .failed)
        #expect(payment?.errorCode == status)
    }

    @Test("an iZettle failure callback fails the payment with its error code")
    func izettleFailure() throws {
        var payment: Payment?
        let request = try Providers.parseLaunch(
            "izettle://x-callback-url/payment/1.0?x-source=shop&x-success=myshop%3A%2F%2Fok&x-failure=myshop%3A%2F%2Ffail&api-key=K&price=20&currency=SEK&title=T&reference=ref-1")
        try run(.request(request, builtByPaylog: false), on: &payment)
        try run(.receiveCallback(try Providers.parseCallback("myshop://fail?reference=ref-1&errorCode=InvalidCurrency", provider: .izettle)), on: &payment)
        #expect(payment?.status == .failed)
        #expect(payment?.errorCode == "InvalidCurrency")
    }

    @Test("a callback with an invalid status is recorded as evidence but changes no status")
    func invalidStatus() throws {
        var payment: Payment?
        try run(.request(try WorkflowFixtures.squareRequest(payment: "p1", state: "s"), builtByPaylog: true), on: &payment)
        let events = try run(.receiveCallback(try WorkflowFixtures.squareCallback(#"{"status":"maybe","state":"s"}"#)), on: &payment)
        #expect(events.map(\.typeName) == ["CallbackReceived"])
        #expect(payment?.status == .requested)
    }

    @Test("a callback from another provider than the request's is refused")
    func providerMismatch() throws {
        var payment: Payment?
        try run(.request(try sumupRequest(reference: "r1"), builtByPaylog: false), on: &payment)
        #expect(throws: PaymentRejection.providerMismatch(payment: "p1", expected: .sumup, got: .square)) {
            try run(.receiveCallback(try WorkflowFixtures.squareOnline(state: "r1")), on: &payment)
        }
    }

    @Test("expire leaves reconciled and online payments alone")
    func expireOnlyOffline() throws {
        var payment: Payment?
        try run(.request(try WorkflowFixtures.squareRequest(payment: "p1", state: "s"), builtByPaylog: true), on: &payment)
        try run(.receiveCallback(try WorkflowFixtures.squareOnline(state: "s")), on: &payment)
        #expect(try run(.expire(nowMicroseconds: .max), on: &payment).isEmpty)
        #expect(payment?.status == .completed)
    }
}
