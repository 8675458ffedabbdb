import PaylogCompatibility
import PaylogStore

/// The whole-log replay: rebuilds every view from the log into scratch space with today's code, compares it
/// with the live views, judges every request and callback, and verifies the hash chain.
public enum LogReplay {
    /// Runs the replay over `store`. `progress` gets (events done, events in the log) now and then.
    public static func run(_ store: EventStore, progress: (UInt64, UInt64) -> Void = { _, _ in }) throws -> ReplayReport {
        var judge = EvidenceJudge()
        var findings: [Finding] = []
        let chain = try store.verifyChain()
        let payments = try store.readViews { txn, databases in try txn.count(databases["payments"]) }
        do {
            let rebuild = try ProjectionRebuild.run(store, eachEvent: { event in
                let decoded = try EventCodec.decode(event)
                findings.append(contentsOf: judge.judge(event, decoded: decoded).findings)
            }, progress: progress)
            return ReplayReport(
                events: rebuild.events, payments: payments, differences: rebuild.differences,
                differenceCount: rebuild.differenceCount, chain: chain, findings: findings, rebuildError: nil)
        } catch {
            // An event today's code cannot read: the views cannot be rebuilt. Report it, with the chain check.
            return ReplayReport(
                events: 0, payments: payments, differences: [], differenceCount: 1, chain: chain, findings: findings,
                rebuildError: "\(error)")
        }
    }
}
