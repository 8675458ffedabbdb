/// What a rule, and so each of its findings, rests on: a confirmed (**[C]**) or an inferred (**[I]**) fact of the
/// provider contract.
public enum Basis: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every contract fact the rule cites is confirmed by a published source.
    case confirmed
    /// The rule cites at least one inferred fact (or one the contract marks confirmed-or-inferred, `[C/I]`):
    /// probably right, check before acting.
    case inferred

    /// The basis of a rule citing `source`: ``confirmed`` when it cites only **[C]** facts, ``inferred`` when any
    /// cited fact is **[I]** or **[C/I]**.
    public init(source: String) {
        self = source.contains("[I]") || source.contains("[C/I]") ? .inferred : .confirmed
    }

    /// The contract's own mark, for text output: `[C]` or `[I]`.
    public var mark: String {
        switch self {
        case .confirmed: "[C]"
        case .inferred: "[I]"
        }
    }
}
