import Foundation
import PaylogDomain

extension CompatibilityChecker {
    /// The rule table as Markdown (id, provider, severity, basis, what it checks, source), as published in
    /// `Docs/compatibility.md`.
    public static var rulesMarkdownTable: String {
        var lines = [
            "| id | provider | severity | basis | what it checks | source |",
            "|---|---|---|---|---|---|",
        ]
        for rule in rules {
            let cells = [
                "`\(rule.id)`", rule.provider?.rawValue ?? "any", rule.severity.rawValue, rule.basis.rawValue,
                rule.summary, rule.source,
            ]
            lines.append(
                "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
