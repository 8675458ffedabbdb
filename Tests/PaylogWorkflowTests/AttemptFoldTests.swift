import Foundation
import PaylogDomain
import PaylogProviders
import Testing

/// How a payment's status is folded across its attempts: a failure observed before the success that is recorded
/// after it, a success answering an attempt that had failed, a decline after a success, and a second transaction on
/// the provider's report.
@Suite("Payment state machine: attempts")
struct AttemptFoldTests {
    /// Decides `command` at `at` (µs) and applies its events with `at` as their observed time, as the status view
    /// does; returns the events.
    @discardableResult
    func run(_ command: PaymentCommand, on payment: inout Payment?, at: Int64) throws -> [PaymentEvent] {
        let events = try Payment.decide(command, for: payment, id: "p1", at: at)
        for event in events { Payment.evolve(&payment, id: "p1", event, observedAt: at) }
        return events
    }

    func request(_ reference: String, amount: String = "10.00") throws -> PaymentCommand {
        .request(try Providers.parseLaunch(
            "sumupmerchant://pay/1.0?amount=\(amount)&currency=EUR&affiliate-key=AK&foreign-tx-id=\(reference)&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail",
            appVersion: "1.88.0"), builtByPaylog: false)
    }

    func success(_ reference: String, tx: String) throws -> PaymentCommand {
        .receiveCallback(try Providers.parseCallback("myshop://ok?smp-status=success&smp-tx-code=\(tx)&foreign-tx-id=\(reference)", provider: .sumup))
    }

    func declined(_ reference: String) throws -> PaymentCommand {
        .receiveCallback(try Providers.parseCallback(
            "myshop://fail?smp-status=failed&smp-failure-cause=declined&foreign-tx-id=\(reference)", provider: .sumup))
    }

    /// A SumUp report line matched by `reference`; `attemptMinor`: what that attempt asked, as the workflow passes it.
    func line(_ tx: String, reference: String, minor: Int64, attemptMinor: Int64? = nil) throws -> PaymentCommand {
        let eur = try CurrencyCode("EUR")
        return .reconcile(
            ReconciliationLine(
                provider: .sumup, transactionID: tx, foreignTransactionID: reference, amount: Money(minorUnits: minor, currency: eur),
                rawLine: "{\"tx\":\"\(tx)\"}"),
            matchedBy: "foreign_tx_id", attemptAmount: attemptMinor.map { Money(minorUnits: $0, currency: eur) })
    }

    static let minute: Int64 = 60_000_000

    @Test("a till's failure observed before the success but recorded after it is recorded, fails nothing and makes the success late, as in the other order; one observed after is refused")
    func failureObservedBeforeSuccess() throws {
        let m = Self.minute
        var failFirst: Payment?
        try run(request("r1"), on: &failFirst, at: 0)
        try run(.fail(reason: "till timeout"), on: &failFirst, at: 2 * m)
        try run(success("r1", tx: "OTX"), on: &failFirst, at: 3 * m)

        var successFirst: Payment?
        try run(request("r1"), on: &successFirst, at: 0)
        try run(success("r1", tx: "OTX"), on: &successFirst, at: 3 * m)
        let events = try run(.fail(reason: "till timeout"), on: &successFirst, at: 2 * m)
        guard case .failed(let failed)? = events.first, events.count == 1 else {
            Issue.record("expected one Failed, got \(events)")
            return
        }
        #expect(failed.observedBeforeSuccess && failed.source == .operator_)
        for (order, payment) in [("fail first", failFirst), ("success first", successFirst)] {
            #expect(payment?.status == .completed, "\(order)")
            #expect(payment?.hadLateCallback == true, "\(order)")
            #expect(payment?.transactionID == "OTX" && payment?.errorCode == nil, "\(order)")
        }
        // Observed after the success (or at the same moment), a failure is still refused, with the same advice.
        for at in [3 * m, 4 * m] {
            #expect(throws: PaymentRejection.alreadySucceeded(payment: "p1", status: .completed)) {
                try Payment.decide(.fail(reason: "too late"), for: successFirst, id: "p1", at: at)
            }
        }
        #expect(throws: PaymentRejection.alreadySucceeded(payment: "p1", status: .completed)) {
            try Payment.decide(.fail(reason: "no time"), for: successFirst, id: "p1", at: nil)
        }
    }

    @Test("a failure observed before a report line that reconciled the payment makes the next success late, as recorded first it would")
    func failureObservedBeforeReportLine() throws {
        let m = Self.minute
        var payment: Payment?
        try run(request("r1"), on: &payment, at: 0)
        try run(line("T1", reference: "r1", minor: 1_000), on: &payment, at: 60 * m)
        let events = try run(.fail(reason: "till timeout"), on: &payment, at: 2 * m)
        #expect(events.map(\.typeName) == ["Failed"])
        #expect(payment?.status == .reconciled && payment?.hadLateCallback == false)
        guard case .callbackReceived(let callback)? = try run(success("r1", tx: "T1"), on: &payment, at: 61 * m).first else {
            Issue.record("no callback recorded")
            return
        }
        #expect(callback.isLate && payment?.hadLateCallback == true && payment?.status == .reconciled)
    }

    @Test("a success answering an attempt that had failed is late whatever attempt is in progress; the retry's decline after it sets no error code")
    func successOfAFailedAttempt() throws {
        let m = Self.minute
        var payment: Payment?
        try run(request("tA"), on: &payment, at: 0)
        try run(.fail(reason: "no callback within 120 s"), on: &payment, at: 2 * m)
        try run(request("tB"), on: &payment, at: 3 * m)
        let events = try run(success("tA", tx: "TXA"), on: &payment, at: 4 * m)
        guard case .callbackReceived(let callback)? = events.first else {
            Issue.record("no callback recorded")
            return
        }
        #expect(callback.answersEarlierAttempt && callback.isLate)
        #expect(payment?.status == .completed && payment?.transactionID == "TXA" && payment?.hadLateCallback == true)
        #expect(try run(declined("tB"), on: &payment, at: 5 * m).map(\.typeName) == ["CallbackReceived"])
        #expect(payment?.status == .completed && payment?.errorCode == nil, "the retry's decline does not describe the charge")
        #expect(payment?.hadContradictingCallbacks == false)

        // An attempt a retry replaced without a failure is not late: the shop never gave it up.
        var replaced: Payment?
        try run(request("tA"), on: &replaced, at: 0)
        try run(request("tB"), on: &replaced, at: 3 * m)
        guard case .callbackReceived(let onTime)? = try run(success("tA", tx: "TXA"), on: &replaced, at: 4 * m).first else { return }
        #expect(!onTime.isLate && replaced?.hadLateCallback == false)
    }

    @Test("after a request made after a success, the new attempt's decline contradicts nothing and sets no error code; within one attempt it still contradicts")
    func declineAfterRequestAfterSuccess() throws {
        let m = Self.minute
        var payment: Payment?
        try run(request("uA"), on: &payment, at: 0)
        try run(success("uA", tx: "TA"), on: &payment, at: 1 * m)
        try run(request("uB"), on: &payment, at: 2 * m)
        #expect(payment?.hadRequestAfterSuccess == true)
        guard case .callbackReceived(let decline)? = try run(declined("uB"), on: &payment, at: 3 * m).first else {
            Issue.record("no callback recorded")
            return
        }
        #expect(!decline.contradictsEarlier && payment?.hadContradictingCallbacks == false)
        #expect(payment?.status == .completed && payment?.transactionID == "TA" && payment?.errorCode == nil)

        var single: Payment?
        try run(request("uA"), on: &single, at: 0)
        try run(success("uA", tx: "TA"), on: &single, at: 1 * m)
        guard case .callbackReceived(let contradiction)? = try run(declined("uA"), on: &single, at: 3 * m).first else { return }
        #expect(contradiction.contradictsEarlier && single?.hadContradictingCallbacks == true)
        #expect(single?.status == .completed && single?.errorCode == "declined", "a failure of the attempt that succeeded")

        // The request that succeeded, observed again after the success, starts no attempt: its decline still contradicts.
        var again: Payment?
        try run(request("uA"), on: &again, at: 0)
        try run(success("uA", tx: "TA"), on: &again, at: 1 * m)
        try run(request("uA"), on: &again, at: 2 * m)
        guard case .callbackReceived(let stillContradicts)? = try run(declined("uA"), on: &again, at: 3 * m).first else { return }
        #expect(stillContradicts.contradictsEarlier && again?.hadContradictingCallbacks == true)
    }

    @Test("a replaced attempt's failure sets no error code, before the retry's success or after it; a new attempt clears the one before")
    func errorCodeOfTheAttempt() throws {
        let m = Self.minute
        for retryFirst in [true, false] {
            var payment: Payment?
            try run(request("qA"), on: &payment, at: 0)
            try run(.fail(reason: "timeout"), on: &payment, at: 2 * m)
            try run(request("qB"), on: &payment, at: 3 * m)
            if retryFirst { try run(success("qB", tx: "TXB"), on: &payment, at: 4 * m) }
            try run(declined("qA"), on: &payment, at: 5 * m)
            if !retryFirst {
                #expect(payment?.status == .requested && payment?.errorCode == nil, "the retry is in progress")
                try run(success("qB", tx: "TXB"), on: &payment, at: 6 * m)
            }
            #expect(payment?.status == .completed && payment?.transactionID == "TXB", "retry first: \(retryFirst)")
            #expect(payment?.errorCode == nil, "retry first: \(retryFirst)")
        }
        // A decline fails attempt A with its code; the retry is a new attempt, and its success stands on its own.
        var retried: Payment?
        try run(request("qA"), on: &retried, at: 0)
        try run(declined("qA"), on: &retried, at: 1 * m)
        #expect(retried?.status == .failed && retried?.errorCode == "declined")
        try run(request("qB"), on: &retried, at: 2 * m)
        #expect(retried?.status == .requested && retried?.errorCode == nil && retried?.failureReason == nil)
        try run(success("qB", tx: "TXB"), on: &retried, at: 3 * m)
        #expect(retried?.status == .completed && retried?.errorCode == nil)
    }

    @Test("two report lines with different transaction ids are two charges, each judged against its own attempt; a corrected amount is not")
    func twoReportedTransactions() throws {
        let m = Self.minute
        var payment: Payment?
        try run(request("refA", amount: "10.00"), on: &payment, at: 0)
        try run(.fail(reason: "no callback within 120 s"), on: &payment, at: 2 * m)
        try run(request("refB", amount: "12.00"), on: &payment, at: 3 * m)
        try run(success("refB", tx: "TXB"), on: &payment, at: 4 * m)
        #expect(payment?.hadMultipleCharges == false)
        try run(line("TXA", reference: "refA", minor: 1_000, attemptMinor: 1_000), on: &payment, at: 60 * m)
        #expect(payment?.hadMultipleCharges == false, "one line is one charge")
        try run(line("TXB", reference: "refB", minor: 1_200, attemptMinor: 1_200), on: &payment, at: 60 * m)
        #expect(payment?.hadMultipleCharges == true && payment?.hadAmountMismatch == false)
        #expect(payment?.status == .reconciled && payment?.transactionID == "TXB")

        var corrected: Payment?
        try run(request("refA"), on: &corrected, at: 0)
        try run(line("TXA", reference: "refA", minor: 1_000), on: &corrected, at: 60 * m)
        try run(line("TXA", reference: "refA", minor: 10_000), on: &corrected, at: 61 * m)
        #expect(corrected?.hadMultipleCharges == false && corrected?.hadAmountMismatch == true)
    }
}

