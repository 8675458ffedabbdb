import PaylogCompatibility

/// One rule's findings in a ``FindingTally``: how many, and the first in log order.
public struct FindingRuleTally: Sendable, Hashable {
    /// The rule's first finding: its rule id and severity are the rule's; its basis is that finding's (one rule,
    /// `evidence.reference-reused`, rests on a confirmed fact for SumUp and on an inference for the others).
    public let first: Finding
    /// How many findings the rule made.
    public internal(set) var count: Int

    /// A tally of one: `first`.
    init(first: Finding) {
        self.first = first
        self.count = 1
    }
}
