import Foundation
import PaylogCompatibility
import PaylogPresentation
import PaylogWorkflow

/// Prints the whole-log replay report.
enum ReplayOutput {
    static func print(_ report: ReplayReport, json: Bool) throws {
        if json {
            var object: [String: Any] = [
                "events": report.events, "payments": report.payments, "projections_match": report.projectionsMatch,
                "chain_ok": report.chain.isIntact, "findings": report.findings.listed.map(FindingJSON.object),
                "finding_count": report.findings.total,
                "findings_by_rule": report.findings.byRule.map { tally in
                    ["rule": tally.first.rule, "severity": tally.first.severity.rawValue, "basis": tally.first.basis.rawValue,
                     "count": tally.count] as [String: Any]
                },
                "exit_status": report.exitStatus,
            ]
            if let rebuildError = report.rebuildError { object["rebuild_error"] = rebuildError }
            if !report.projectionsMatch {
                object["differences"] = report.differences.map { ["database": $0.database, "key": $0.key, "kind": $0.kind] }
                object["difference_count"] = report.differenceCount
            }
            if let broken = report.chain.firstBrokenPosition {
                object["chain_first_broken_position"] = broken
                object["chain_problem"] = report.chain.problem ?? ""
            }
            Swift.print(try JSONText.encode(object))
            return
        }
        Swift.print("replayed \(report.events) events of \(report.payments) payments")
        Swift.print("hash chain: \(report.chain.isIntact ? "intact" : "BROKEN at position \(report.chain.firstBrokenPosition!): \(report.chain.problem ?? "")")")
        if let rebuildError = report.rebuildError {
            Swift.print("views: COULD NOT BE REBUILT: \(rebuildError)")
        } else if report.projectionsMatch {
            Swift.print("views: the rebuilt views match the live ones")
        } else {
            Swift.print("views: \(report.differenceCount) difference(s) between the rebuilt and the live views (projection drift):")
            for difference in report.differences.prefix(20) { Swift.print("  \(difference.database) \(difference.key): \(difference.kind)") }
        }
        let findings = report.findings
        Swift.print("findings: \(findings.count(.error)) error(s), \(findings.count(.warning)) warning(s), \(findings.count(.info)) info")
        for tally in findings.byRule where tally.first.severity != .info {
            let first = tally.first
            Swift.print("  [\(first.severity.rawValue)] \(first.basis.mark) \(first.rule) ×\(tally.count) — e.g. \(first.payment) #\(first.position): \(TerminalText.escaped(first.message))")
        }
    }
}
