import PaylogCompatibility
import PaylogStore

/// What `paylog replay` found: the views rebuilt from the log compared with the live ones, the hash chain,
/// and every compatibility finding.
public struct ReplayReport: Sendable {
    /// Events replayed.
    public var events: UInt64
    /// Payments in the log.
    public var payments: Int
    /// Where the rebuilt views differ from the live ones (the first 100).
    public var differences: [ViewDifference]
    /// How many differences there were in all.
    public var differenceCount: Int
    /// The hash-chain check.
    public var chain: ChainReport
    /// Every finding counted, and the first ``FindingTally/listLimit`` kept whole (``FindingTally``).
    public var findings: FindingTally
    /// Why the views could not be rebuilt at all (an event today's code cannot read), if so.
    public var rebuildError: String?

    /// True when every rebuilt view equals the live one.
    public var projectionsMatch: Bool { differenceCount == 0 }

    /// The exit status `paylog replay` uses: 3 chain broken, 4 projection drift, 5 error-severity findings,
    /// else 0 — the most serious wins.
    public var exitStatus: Int32 {
        if !chain.isIntact { return 3 }
        if !projectionsMatch { return 4 }
        if findings.count(.error) > 0 { return 5 }
        return 0
    }
}
