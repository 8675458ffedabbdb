import PaylogCompatibility
import Testing

@Suite("Every rule fires on its breach and stays quiet on the close legal variant")
struct RuleFiringTests {
    @Test("the rule fires, with its own severity, and does not fire on the legal variant", arguments: RuleCases.all)
    func firesAndStaysQuiet(_ ruleCase: RuleCase) throws {
        let rule = try #require(CompatibilityChecker.rule(id: ruleCase.rule))
        let fired = try ruleCase.fires.findings().filter { $0.rule == ruleCase.rule }
        #expect(!fired.isEmpty, "\(ruleCase.rule) did not fire on \(ruleCase.fires.testDescription)")
        for finding in fired {
            #expect(finding.severity == rule.severity)
            #expect(finding.payment == Fixtures.paymentID)
            #expect(finding.position == 7)
            #expect(finding.message.count > 30)
        }
        let quiet = try ruleCase.quiet.findings().filter { $0.rule == ruleCase.rule }
        #expect(quiet.isEmpty, "\(ruleCase.rule) fired on \(ruleCase.quiet.testDescription): \(quiet)")
    }

    @Test("every published rule has a firing/quiet case")
    func everyRuleHasACase() {
        let covered = Set(RuleCases.all.map(\.rule))
        let published = Set(CompatibilityChecker.rules.map(\.id))
        #expect(published.subtracting(covered).sorted() == [])
        #expect(covered.subtracting(published).sorted() == [])
    }
}
