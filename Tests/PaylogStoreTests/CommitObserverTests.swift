import Synchronization
import Testing

@testable import PaylogStore

/// The commit observer (`paylog_group_commit_size`) must cost the same on the millionth commit as on the first.
@Suite("Commit observer")
struct CommitObserverTests {
    /// Before the observer was held by a class, each call wrapped the stored closure in one more thunk: these calls
    /// took about 2 minutes (each going through every thunk before it), and releasing the statistics afterwards
    /// overflowed the stack. Now they take milliseconds. The time limit records an issue once the test has run a
    /// minute (it cannot stop a synchronous body); the old code met it, then crashed the process on the release.
    @Test("150,000 commits observed: each reaches the observer once, and the statistics are released cleanly",
          .timeLimit(.minutes(1)))
    func manyCommits() {
        let calls = Atomic<Int>(0)
        let events = Atomic<Int>(0)
        var statistics: WriterStatistics? = WriterStatistics()
        statistics?.observeGroupCommits { appended in
            calls.add(1, ordering: .relaxed)
            events.add(appended, ordering: .relaxed)
        }
        for index in 0..<150_000 { statistics?.observe(eventsAppended: index % 3) }
        #expect(calls.load(ordering: .relaxed) == 100_000, "a transaction that appended nothing is not reported")
        #expect(events.load(ordering: .relaxed) == 150_000)
        // Released here, in the test: the old chain of thunks overflowed the stack at this line.
        statistics = nil
    }

    @Test("a later observer replaces the earlier one")
    func replaced() {
        let first = Atomic<Int>(0)
        let second = Atomic<Int>(0)
        let statistics = WriterStatistics()
        statistics.observeGroupCommits { first.add($0, ordering: .relaxed) }
        statistics.observe(eventsAppended: 2)
        statistics.observeGroupCommits { second.add($0, ordering: .relaxed) }
        statistics.observe(eventsAppended: 5)
        #expect(first.load(ordering: .relaxed) == 2 && second.load(ordering: .relaxed) == 5)
    }
}
