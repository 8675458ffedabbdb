import PaylogCompatibility

/// One rule's findings in a ``FindingTally``: how many, and the first in log order.
public struct FindingRuleTally: Sendable, Hashable {
    /// The rule's first finding (its rule id, severity and basis are the rule's).
    public let first: Finding
    /// How many findings the rule made.
    public internal(set) var count: Int

    /// A tally of one: `first`.
    init(first: Finding) {
        self.first = first
        self.count = 1
    }
}
