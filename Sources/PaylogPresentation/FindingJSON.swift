import PaylogCompatibility

/// One compatibility finding as a JSON object (replay, audit, `GET /v1/findings`).
public enum FindingJSON {
    /// The finding's payment, log position, severity, basis (`confirmed` or `inferred`), rule id and message.
    public static func object(_ finding: Finding) -> [String: Any] {
        ["payment": finding.payment, "position": finding.position, "severity": finding.severity.rawValue,
         "basis": finding.basis.rawValue, "rule": finding.rule, "message": finding.message]
    }
}
