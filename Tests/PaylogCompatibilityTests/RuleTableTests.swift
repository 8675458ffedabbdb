import Foundation
import PaylogCompatibility
import PaylogDomain
import Testing

@Suite("The published rule table")
struct RuleTableTests {
    @Test("rule ids are unique, stable-looking and documented with a source")
    func uniqueIDs() {
        let ids = CompatibilityChecker.rules.map(\.id)
        #expect(Set(ids).count == ids.count)
        for rule in CompatibilityChecker.rules {
            #expect(rule.id.allSatisfy { $0.isLowercase || $0.isNumber || "-.".contains($0) }, "\(rule.id)")
            #expect(rule.source.hasPrefix("[C]") || rule.source.hasPrefix("[I]") || rule.source.hasPrefix("[C/I]"))
            #expect(!rule.summary.isEmpty)
            if let provider = rule.provider { #expect(rule.id.hasPrefix(provider.rawValue + ".")) }
        }
    }

    @Test("errors come only from confirmed facts; inferred rules are never errors")
    func severityMatchesSource() {
        for rule in CompatibilityChecker.rules {
            if rule.severity == .error { #expect(rule.source.hasPrefix("[C]"), "\(rule.id)") }
            if rule.source.hasPrefix("[I]") { #expect(rule.severity != .error, "\(rule.id)") }
        }
    }

    @Test("every rule has a basis read from its source, and every finding carries its rule's")
    func basisFollowsSource() throws {
        for rule in CompatibilityChecker.rules {
            let inferred = rule.source.contains("[I]") || rule.source.contains("[C/I]")
            #expect(rule.basis == (inferred ? .inferred : .confirmed), "\(rule.id)")
            if rule.severity == .error { #expect(rule.basis == .confirmed, "\(rule.id)") }
        }
        #expect(Set(CompatibilityChecker.rules.map(\.basis)) == Set(Basis.allCases))
        let subjects = RuleCases.all.map(\.fires)
        for subject in subjects {
            for finding in try subject.findings() {
                #expect(finding.basis == CompatibilityChecker.rule(id: finding.rule)?.basis, "\(finding.rule)")
            }
        }
    }

    @Test("inferred rules do not state their inference as a fact")
    func inferredMessagesHedge() throws {
        let tenders = try RuleCases.squareRequest.first { $0.rule == "square.request.tender-types-empty" }!.fires.findings()
        let message = try #require(tenders.first { $0.rule == "square.request.tender-types-empty" }?.message)
        #expect(!message.contains("no tender could be offered"))
        #expect(message.contains("may offer no tender"))
    }

    @Test("every id a finding carries is listed in the table")
    func findingIDsAreListed() throws {
        let published = Set(CompatibilityChecker.rules.map(\.id))
        let subjects = RuleCases.all.flatMap { [$0.fires, $0.quiet] } + ValidRecords.all.map(\.subject)
        var seen: Set<String> = []
        for subject in subjects {
            for finding in try subject.findings() {
                #expect(published.contains(finding.rule), "\(finding.rule)")
                #expect(CompatibilityChecker.rule(id: finding.rule)?.severity == finding.severity)
                seen.insert(finding.rule)
            }
        }
        #expect(seen == published)
    }

    @Test("findings encode with the keys payment, position, severity, basis, rule, message")
    func findingJSON() throws {
        let finding = Finding(
            payment: "pay_1", position: 42, severity: .warning, basis: .inferred, rule: "square.request.amount-as-string",
            message: "m")
        let data = try JSONEncoder().encode(finding)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["payment", "position", "severity", "basis", "rule", "message"])
        #expect(object["severity"] as? String == "warning")
        #expect(object["basis"] as? String == "inferred")
        #expect(try JSONDecoder().decode(Finding.self, from: data) == finding)
    }

    @Test("Docs/compatibility.md publishes the generated table and every rule id")
    func docListsEveryRule() throws {
        let doc = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Docs/compatibility.md")
        let text = try String(contentsOf: doc, encoding: .utf8)
        for rule in CompatibilityChecker.rules { #expect(text.contains("`\(rule.id)`"), "\(rule.id)") }
        let table = CompatibilityChecker.rulesMarkdownTable
        if !text.contains(table) {
            try? table.write(
                toFile: NSTemporaryDirectory() + "compatibility-rules.md", atomically: true, encoding: .utf8)
        }
        #expect(text.contains(table), "regenerate the table from CompatibilityChecker.rulesMarkdownTable")
    }
}
