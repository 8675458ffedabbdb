import PaylogWorkflow

/// A payment's audit timeline as a JSON object: `paylog audit --json` and `GET /v1/payments/{id}/audit`.
public enum AuditJSON {
    /// `{"payment":…, "timeline":[…]}`, one entry per event with its evidence, reading, notes, findings and state.
    public static func object(payment: String, entries: [AuditEntry]) -> [String: Any] {
        let timeline: [[String: Any]] = entries.map { entry in
            var object: [String: Any] = [
                "position": entry.event.position, "version": entry.event.version, "type": entry.event.type,
                "recorded_at": entry.event.recordedAt.rfc3339, "actor": entry.event.actor, "hash": entry.event.hashHex,
                "notes": entry.notes, "findings": entry.findings.map(FindingJSON.object),
                "state": PaymentJSON.object(entry.state),
            ]
            if let observed = entry.event.observedAt { object["observed_at"] = observed.rfc3339 }
            if let evidence = entry.evidence { object["evidence"] = evidence }
            if let reading = entry.reading { object["reading"] = reading }
            return object
        }
        return ["payment": payment, "timeline": timeline]
    }
}
