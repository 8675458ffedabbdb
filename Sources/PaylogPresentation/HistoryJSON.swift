import Foundation
import PaylogDomain
import PaylogWorkflow

/// A payment replayed event by event as a JSON object: `paylog replay --payment --json` and
/// `GET /v1/payments/{id}/replay`.
public enum HistoryJSON {
    /// The raw evidence an event carries, if any: the launch or callback URL, the report line, the reason (an
    /// expiry's, which paylog wrote with its window's end in microseconds, with that end as an RFC 3339 time).
    public static func evidence(_ event: PaymentEvent) -> String? {
        switch event {
        case .requested(let e): return e.launchURL
        case .callbackReceived(let e): return e.callbackURL
        case .reconciled(let e): return e.reportLine
        case .failed(let e): return e.source == .expiry ? PaymentAudit.readable(e.reason) : e.reason
        case .offline(let e): return "client_transaction_id \(e.clientTransactionID)"
        case .appSwitched(let e): return e.note.isEmpty ? nil : e.note
        }
    }

    /// `{"payment":…, "at":…?, "events":[…], "state":…}` (`state` null when no event is included). With
    /// `includePersonalData` false, personal query items in the evidence read `REDACTED`. An event with notes in
    /// `notes` (by position, ``PaylogWorkflow/PaymentAudit/notesByPosition(of:in:includePersonalData:)``) carries them
    /// as `notes`.
    public static func object(
        _ steps: [HistoryStep], payment: String, cutoff: String?, includePersonalData: Bool = true,
        notes: [UInt64: [String]] = [:]
    ) -> [String: Any] {
        let objects: [[String: Any]] = steps.map { step in
            var object: [String: Any] = [
                "position": step.event.position, "version": step.event.version, "type": step.event.type,
                "recorded_at": step.event.recordedAt.rfc3339, "actor": step.event.actor,
                "state": PaymentJSON.object(step.state),
            ]
            if let observed = step.event.observedAt { object["observed_at"] = observed.rfc3339 }
            if let evidence = evidence(step.decoded) {
                object["evidence"] = includePersonalData ? evidence : PaymentAudit.redact(evidence)
            }
            if let stepNotes = notes[step.event.position] { object["notes"] = stepNotes }
            return object
        }
        var result: [String: Any] = ["payment": payment, "events": objects]
        if let cutoff { result["at"] = cutoff }
        // Before its first event (`at` 0, or a time before it) a payment has no state: null, so the shape holds.
        result["state"] = steps.last.map { PaymentJSON.object($0.state) } ?? NSNull()
        return result
    }
}
