import Testing

@testable import PaylogStore

/// The rule deciding whether the writer waits for callers it has just answered before its next commit.
@Suite("Group commit gathering")
struct CommitGatheringTests {
    @Test("with no commit behind it, the writer commits what is queued at once")
    func freshCommitsNow() {
        let gathering = CommitGathering()
        #expect(gathering.decide(queued: 1, maximumGroup: 4096) == .commitNow)
        #expect(gathering.decide(queued: 50, maximumGroup: 4096) == .commitNow)
    }

    @Test("after a commit answered 32 while 32 queued, it waits for all 64, at most half that commit's time")
    func waitsForAnsweredCallers() {
        var gathering = CommitGathering()
        gathering.committed(answered: 32, queuedMeanwhile: 32, seconds: 0.0008)
        #expect(gathering.decide(queued: 32, maximumGroup: 4096) == .wait(count: 64, seconds: 0.0004))
        #expect(gathering.decide(queued: 63, maximumGroup: 4096) == .wait(count: 64, seconds: 0.0004))
        #expect(gathering.decide(queued: 64, maximumGroup: 4096) == .commitNow)
        #expect(gathering.decide(queued: 100, maximumGroup: 4096) == .commitNow)
    }

    @Test("a lone caller never waits: it is every caller in flight")
    func loneCallerNeverWaits() {
        var gathering = CommitGathering()
        gathering.committed(answered: 1, queuedMeanwhile: 0, seconds: 0.005)
        #expect(gathering.decide(queued: 1, maximumGroup: 4096) == .commitNow)
    }

    @Test("the wait is capped, and the target never exceeds the largest group")
    func bounds() {
        var gathering = CommitGathering()
        gathering.committed(answered: 4000, queuedMeanwhile: 500, seconds: 1.5)
        #expect(gathering.decide(queued: 10, maximumGroup: 4096) == .wait(count: 4096, seconds: CommitGathering.cap))
        gathering.committed(answered: 8, queuedMeanwhile: 0, seconds: 0)
        #expect(gathering.decide(queued: 2, maximumGroup: 4096) == .commitNow, "no time to spare: commit now")
    }

    @Test("a load that drops is forgotten after one commit")
    func loadDrops() {
        var gathering = CommitGathering()
        gathering.committed(answered: 64, queuedMeanwhile: 0, seconds: 0.001)
        #expect(gathering.decide(queued: 3, maximumGroup: 4096) == .wait(count: 64, seconds: 0.0005))
        gathering.committed(answered: 3, queuedMeanwhile: 0, seconds: 0.001)
        #expect(gathering.decide(queued: 3, maximumGroup: 4096) == .commitNow)
    }
}
