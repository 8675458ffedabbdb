import Foundation
import PaylogDomain
import PaylogPresentation
import PaylogStore
import PaylogWorkflow

/// Prints `paylog replay --payment`: each event and the state after it.
enum ReplayPaymentOutput {
    static func print(_ steps: [HistoryStep], payment: String, cutoff: String?, json: Bool) throws {
        if json {
            Swift.print(try JSONText.encode(HistoryJSON.object(steps, payment: payment, cutoff: cutoff)))
            return
        }
        Swift.print("payment \(payment)\(cutoff.map { " as of \($0)" } ?? ""): \(steps.count) event(s)")
        // When the latest failure was observed: the audit's wording of a late callback, which may say the failure
        // was premature.
        var failureObservedAt: Timestamp?
        for step in steps {
            let observed = step.event.observedAt?.rfc3339 ?? "-"
            Swift.print("")
            Swift.print("v\(step.event.version) #\(step.event.position)  \(step.event.type)  observed \(observed)  recorded \(step.event.recordedAt.rfc3339)  by \(step.event.actor)")
            if let evidence = HistoryJSON.evidence(step.decoded) { Swift.print("   evidence: \(evidence)") }
            if case .callbackReceived(let callback) = step.decoded {
                var notes: [String] = []
                if callback.isLate {
                    notes.append(PaymentAudit.lateNote(observedAt: step.event.observedAt, failureObservedAt: failureObservedAt))
                }
                if callback.isRedelivery { notes.append(PaymentAudit.redeliveryNote) }
                if callback.answersEarlierAttempt { notes.append(PaymentAudit.earlierAttemptNote(callback.outcome)) }
                if callback.isRepeat && !callback.isRedelivery { notes.append("a further callback") }
                if callback.contradictsEarlier { notes.append("CONTRADICTS an earlier callback") }
                if !notes.isEmpty { Swift.print("   note: \(notes.joined(separator: "; "))") }
            }
            if case .failed = step.decoded { failureObservedAt = step.event.observedAt }
            let s = step.state
            Swift.print("   → status \(s.status.rawValue); amount \(s.amount.map { "\($0.decimalString) \($0.currency.code)" } ?? "?"); transaction_id \(s.transactionID ?? "-"); client_transaction_id \(s.clientTransactionID ?? "-"); error_code \(s.errorCode ?? "-")")
        }
    }
}
