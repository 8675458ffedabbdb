/// When the writer waits a moment before its next commit, so that callers it has just answered can join it.
///
/// With many callers each awaiting its own durable append, group commit alone settles into two halves taking
/// turns: while one half's commit is on its way to disk the other half queues, and commits it alone as soon as
/// the disk returns, while the first half is still being resumed. Every fsync then carries half the callers.
/// After a commit the writer therefore remembers how many callers were in flight around it (those it answered
/// plus those that queued meanwhile); when fewer are queued, it waits until that many are, but never longer than
/// ``fraction`` of the last commit's duration and never more than ``cap`` — the leader-waits-for-followers rule
/// of MySQL's `binlog_group_commit_sync_delay` and PostgreSQL's `commit_delay`, with the delay taken from the
/// disk's own pace instead of a setting. A lone caller never waits: it is all the callers in flight. The writer
/// spends the wait writing: it opens the group's transaction at once and takes the late callers as they queue.
struct CommitGathering {
    /// The longest wait, as a share of the last commit's duration.
    static let fraction = 0.5
    /// The longest wait in seconds, whatever the last commit took.
    static let cap = 0.002

    /// What the writer does before taking its next group.
    enum Decision: Equatable {
        /// Take what is queued now.
        case commitNow
        /// Wait until `count` appends are queued, or `seconds` have passed.
        case wait(count: Int, seconds: Double)
    }

    private var callersInFlight = 0
    private var lastCommitSeconds = 0.0

    /// Records a commit that answered `answered` callers and took `seconds`, while `queuedMeanwhile` appends queued
    /// (counted before the callers were answered, so that none of them is counted twice).
    mutating func committed(answered: Int, queuedMeanwhile: Int, seconds: Double) {
        callersInFlight = answered + queuedMeanwhile
        lastCommitSeconds = max(seconds, 0)
    }

    /// Whether to wait, with `queued` appends queued (at least one) and groups of at most `maximumGroup`.
    func decide(queued: Int, maximumGroup: Int) -> Decision {
        let target = min(callersInFlight, maximumGroup)
        guard target > queued else { return .commitNow }
        let seconds = min(lastCommitSeconds * CommitGathering.fraction, CommitGathering.cap)
        guard seconds > 0 else { return .commitNow }
        return .wait(count: target, seconds: seconds)
    }
}
