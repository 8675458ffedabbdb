import PaylogCompatibility

/// The findings of a whole-log replay in bounded memory: every finding counted, by rule and by severity, and the first
/// ``listLimit`` kept whole, in log order.
///
/// A replay judges every recorded request and callback, and an integration that sends one undocumented field on every
/// request draws a finding on every one: kept whole, ten million of them would take gigabytes (a 700,000-request log
/// with two findings each took `paylog replay` to 2.6 GB). The counts and each rule's first finding are what the report
/// prints; the whole list of one rule's findings is in `GET /v1/findings` and `paylog audit`.
public struct FindingTally: Sendable {
    /// How many findings ``init(listLimit:)`` keeps whole by default.
    public static let defaultListLimit = 1_000

    /// The most findings kept whole.
    public let listLimit: Int
    /// The first ``listLimit`` findings, in log order.
    public private(set) var listed: [Finding] = []
    /// How many findings there were in all.
    public private(set) var total = 0
    private var byRuleID: [String: FindingRuleTally] = [:]
    private var bySeverity: [Severity: Int] = [:]

    /// An empty tally keeping the first `listLimit` findings whole.
    public init(listLimit: Int = FindingTally.defaultListLimit) {
        self.listLimit = listLimit
    }

    /// Counts `finding`, and keeps it whole while fewer than ``listLimit`` are.
    public mutating func add(_ finding: Finding) {
        total += 1
        if listed.count < listLimit { listed.append(finding) }
        bySeverity[finding.severity, default: 0] += 1
        if byRuleID[finding.rule] != nil {
            byRuleID[finding.rule]!.count += 1
        } else {
            byRuleID[finding.rule] = FindingRuleTally(first: finding)
        }
    }

    /// Counts every finding of `findings`, in order.
    public mutating func add(contentsOf findings: some Sequence<Finding>) {
        for finding in findings { add(finding) }
    }

    /// How many findings of `severity` there were.
    public func count(_ severity: Severity) -> Int { bySeverity[severity] ?? 0 }

    /// Each rule that fired, with its count and first finding, by rule id.
    public var byRule: [FindingRuleTally] { byRuleID.values.sorted { $0.first.rule < $1.first.rule } }

    /// True when some findings were counted but not kept whole.
    public var isTruncated: Bool { total > listed.count }
}
