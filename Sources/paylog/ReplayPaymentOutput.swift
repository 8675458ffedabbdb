import Foundation
import PaylogDomain
import PaylogWorkflow

/// Prints `paylog replay --payment`: each event and the state after it.
enum ReplayPaymentOutput {
    static func evidence(_ event: PaymentEvent) -> String? {
        switch event {
        case .requested(let e): return e.launchURL
        case .callbackReceived(let e): return e.callbackURL
        case .reconciled(let e): return e.reportLine
        case .failed(let e): return e.reason
        case .offline(let e): return "client_transaction_id \(e.clientTransactionID)"
        case .appSwitched(let e): return e.note.isEmpty ? nil : e.note
        }
    }

    static func print(_ steps: [HistoryStep], payment: String, cutoff: String?, json: Bool) throws {
        if json {
            let objects: [[String: Any]] = steps.map { step in
                var object: [String: Any] = [
                    "position": step.event.position, "version": step.event.version, "type": step.event.type,
                    "recorded_at": step.event.recordedAt.rfc3339, "actor": step.event.actor,
                    "state": Output.statusObject(step.state),
                ]
                if let observed = step.event.observedAt { object["observed_at"] = observed.rfc3339 }
                if let evidence = evidence(step.decoded) { object["evidence"] = evidence }
                return object
            }
            var result: [String: Any] = ["payment": payment, "events": objects]
            if let cutoff { result["at"] = cutoff }
            if let last = steps.last { result["state"] = Output.statusObject(last.state) }
            Swift.print(try Output.json(result))
            return
        }
        Swift.print("payment \(payment)\(cutoff.map { " as of \($0)" } ?? ""): \(steps.count) event(s)")
        for step in steps {
            let observed = step.event.observedAt?.rfc3339 ?? "-"
            Swift.print("")
            Swift.print("v\(step.event.version) #\(step.event.position)  \(step.event.type)  observed \(observed)  recorded \(step.event.recordedAt.rfc3339)  by \(step.event.actor)")
            if let evidence = evidence(step.decoded) { Swift.print("   evidence: \(evidence)") }
            if case .callbackReceived(let callback) = step.decoded {
                var notes: [String] = []
                if callback.isLate { notes.append("LATE (after the payment had failed)") }
                if callback.isRepeat { notes.append("a further callback") }
                if callback.contradictsEarlier { notes.append("CONTRADICTS an earlier callback") }
                if !notes.isEmpty { Swift.print("   note: \(notes.joined(separator: "; "))") }
            }
            let s = step.state
            Swift.print("   → status \(s.status.rawValue); amount \(s.amount.map { "\($0.decimalString) \($0.currency.code)" } ?? "?"); transaction_id \(s.transactionID ?? "-"); client_transaction_id \(s.clientTransactionID ?? "-"); error_code \(s.errorCode ?? "-")")
        }
    }
}
