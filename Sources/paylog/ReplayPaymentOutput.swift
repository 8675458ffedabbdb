import Foundation
import PaylogDomain
import PaylogPresentation
import PaylogStore
import PaylogWorkflow

/// Prints `paylog replay --payment`: each event and the state after it.
enum ReplayPaymentOutput {
    /// Prints `steps` of `payment`, each with its audit notes from `notes` (by position), as text or as JSON.
    /// `missingVersion`: the version `--at` asked for when the payment has no such version yet (the text says the
    /// steps are all of it, rather than let "as of 6: 5 event(s)" pass for a history cut at 6).
    static func print(
        _ steps: [HistoryStep], payment: String, cutoff: String?, missingVersion: UInt64? = nil, notes: [UInt64: [String]],
        json: Bool
    ) throws {
        if json {
            Swift.print(try JSONText.encode(HistoryJSON.object(steps, payment: payment, cutoff: cutoff, notes: notes)))
            return
        }
        let beyond = missingVersion.map { "; it has no version \($0) (its last is \(steps.last?.event.version ?? 0)): this is all of it" } ?? ""
        Swift.print("payment \(payment)\(cutoff.map { " as of \($0)" } ?? ""): \(steps.count) event(s)\(beyond)")
        for step in steps {
            let observed = step.event.observedAt?.rfc3339 ?? "-"
            Swift.print("")
            Swift.print("v\(step.event.version) #\(step.event.position)  \(step.event.type)  observed \(observed)  recorded \(step.event.recordedAt.rfc3339)  by \(TerminalText.escaped(step.event.actor))")
            // Wire values pass through TerminalText: printed raw, an ESC or CR in one would rewrite the line.
            if let evidence = HistoryJSON.evidence(step.decoded) { Swift.print("   evidence: \(TerminalText.escaped(evidence))") }
            if let stepNotes = notes[step.event.position] {
                Swift.print("   note: \(TerminalText.escaped(stepNotes.joined(separator: "; ")))")
            }
            let s = step.state
            let state = "status \(s.status.rawValue); amount \(s.amount.map { "\($0.decimalString) \($0.currency.code)" } ?? "?"); transaction_id \(s.transactionID ?? "-"); client_transaction_id \(s.clientTransactionID ?? "-"); error_code \(s.errorCode ?? "-")"
            Swift.print("   → " + TerminalText.escaped(state))
        }
    }
}
