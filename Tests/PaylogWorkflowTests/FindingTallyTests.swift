import PaylogCompatibility
@testable import PaylogStore
@testable import PaylogWorkflow
import Testing

/// ``FindingTally``: every finding counted by rule and severity, only the first few kept whole.
@Suite("Finding tally")
struct FindingTallyTests {
    static func finding(_ rule: String, _ severity: Severity, at position: UInt64) -> Finding {
        Finding(payment: "pay-\(position)", position: position, severity: severity, basis: .confirmed, rule: rule, message: "m\(position)")
    }

    @Test("counts every finding, keeps the first listLimit whole in order, and each rule's first and count")
    func counts() {
        var tally = FindingTally(listLimit: 3)
        let findings = [
            Self.finding("b.rule", .warning, at: 1), Self.finding("a.rule", .error, at: 2), Self.finding("b.rule", .warning, at: 3),
            Self.finding("c.rule", .info, at: 4), Self.finding("a.rule", .error, at: 5), Self.finding("b.rule", .warning, at: 6),
        ]
        tally.add(contentsOf: findings)
        #expect(tally.total == 6 && tally.isTruncated)
        #expect(tally.listed.map(\.position) == [1, 2, 3])
        #expect(tally.count(.error) == 2 && tally.count(.warning) == 3 && tally.count(.info) == 1)
        #expect(tally.byRule.map(\.first.rule) == ["a.rule", "b.rule", "c.rule"])
        #expect(tally.byRule.map(\.count) == [2, 3, 1])
        #expect(tally.byRule.map(\.first.position) == [2, 1, 4], "each rule's first in log order")
    }

    @Test("under the limit nothing is left out; an error beyond the listed ones still decides the replay's exit status")
    func underLimitAndExit() {
        var small = FindingTally(listLimit: 10)
        small.add(Self.finding("x", .info, at: 1))
        #expect(!small.isTruncated && small.listed.count == 1)
        var tally = FindingTally(listLimit: 1)
        tally.add(Self.finding("w", .warning, at: 1))
        tally.add(Self.finding("e", .error, at: 2))
        #expect(tally.listed.allSatisfy { $0.severity != .error })
        let report = ReplayReport(
            events: 2, payments: 2, differences: [], differenceCount: 0,
            chain: ChainReport(eventsChecked: 2, lastPosition: 2, firstBrokenPosition: nil, problem: nil, headHash: nil),
            findings: tally, rebuildError: nil)
        #expect(report.exitStatus == 5)
    }
}
