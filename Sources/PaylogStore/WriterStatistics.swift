import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Counters the writer keeps about its group commits.
public final class WriterStatistics: Sendable {
    private let state = Mutex<(commits: Int, appends: Int, largestGroup: Int, gatheringWaits: Int)>((0, 0, 0, 0))
    private let sessionState = Mutex<(commits: Int, sessions: Int, largestGroup: Int)>((0, 0, 0))
    /// Held in a class: see ``CommitObserver`` for what a bare closure in the `Mutex` did.
    private let observer = Mutex<CommitObserver?>(nil)
    /// The writer thread's CPU-time clock while it runs; once it has stopped, the CPU time it had used.
    private let writerClock = Mutex<(clock: clockid_t?, finalNanoseconds: Int64)>((nil, 0))

    /// Counts a group commit of `groupSize` appends (successful or not), which appended `eventsAppended` events.
    func record(groupSize: Int, eventsAppended: Int) {
        state.withLock { value in
            value.commits += 1
            value.appends += groupSize
            value.largestGroup = max(value.largestGroup, groupSize)
        }
        observe(eventsAppended: eventsAppended)
    }

    /// Reports a committed write transaction that appended `eventsAppended` events to the observer, when it appended
    /// any: a group commit, or a write session (``EventStore/withWriteSession(_:)``).
    func observe(eventsAppended: Int) {
        guard eventsAppended > 0 else { return }
        observer.withLock { $0 }?.body(eventsAppended)
    }

    /// Called by the writer thread when it starts: its CPU time is read from its own clock when asked for, instead
    /// of after every job (a `clock_gettime` of a thread's CPU time is a system call: about 10 µs a commit on the
    /// build machine's virtual CPUs).
    func writerStarted() {
        var clock = clockid_t()
        guard pthread_getcpuclockid(pthread_self(), &clock) == 0 else { return }
        writerClock.withLock { $0.clock = clock }
    }

    /// Called by the writer thread as it stops: keeps the CPU time it used, since its clock ends with it.
    func writerStopping() {
        writerClock.withLock { value in
            value.finalNanoseconds = WriterStatistics.nanoseconds(of: CLOCK_THREAD_CPUTIME_ID) ?? value.finalNanoseconds
            value.clock = nil
        }
    }

    private static func nanoseconds(of clock: clockid_t) -> Int64? {
        var time = timespec()
        guard clock_gettime(clock, &time) == 0 else { return nil }
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// Counts `count` write sessions answered, by `transactions` write transactions that ended with them (committed
    /// or not): one for a group, none for sessions answered with their own error without one.
    func recordSessions(_ count: Int, transactions: Int = 1) {
        sessionState.withLock { value in
            value.commits += transactions
            value.sessions += count
            if transactions > 0 { value.largestGroup = max(value.largestGroup, count) }
        }
    }

    func recordGatheringWait() {
        state.withLock { $0.gatheringWaits += 1 }
    }

    /// Calls `body` with the number of events each write transaction of the writer appended from now on — a group
    /// commit or a write session — on the writer thread, after the commit (metrics). Only events written count: an
    /// append refused (a wrong expected version) or already recorded adds nothing, a transaction that appended no
    /// event is not reported, and neither is one whose commit failed. Keep it quick: the next group waits for it. A
    /// later call replaces the observer.
    public func observeGroupCommits(_ body: @escaping @Sendable (Int) -> Void) {
        let observer = CommitObserver(body)
        self.observer.withLock { $0 = observer }
    }

    /// Write transactions committed so far.
    public var commits: Int { state.withLock { $0.commits } }
    /// Appends answered so far (successful or not).
    public var appends: Int { state.withLock { $0.appends } }
    /// The most appends committed together.
    public var largestGroup: Int { state.withLock { $0.largestGroup } }
    /// The CPU time the writer thread has used, in seconds: the difference over a piece of work is what the writer
    /// spent on it (`paylog bench` reports it per event, to tell whether the writer is the limit). Read from the
    /// thread's clock while it runs (the thread cannot stop meanwhile: it takes the same lock to stop); 0 when the
    /// system gives no such clock.
    public var writerCPUSeconds: Double {
        let nanoseconds = writerClock.withLock { value in
            value.clock.flatMap { WriterStatistics.nanoseconds(of: $0) } ?? value.finalNanoseconds
        }
        return Double(nanoseconds) / 1e9
    }
    /// Groups of write sessions ended so far (``EventStore/withWriteSession(_:)``), each one write transaction that
    /// committed or failed (its runs again not counted); a group that failed as a whole counts as the transactions
    /// its sessions then ran in alone. Not counted in ``commits``.
    public var sessionCommits: Int { sessionState.withLock { $0.commits } }
    /// Write sessions answered so far, committed or not.
    public var sessions: Int { sessionState.withLock { $0.sessions } }
    /// The most write sessions run in one transaction.
    public var largestSessionGroup: Int { sessionState.withLock { $0.largestGroup } }
    /// Times the writer waited for callers it had just answered to join its next group (``CommitGathering``).
    /// Callers that each await their append one after the other never cause a wait.
    public var gatheringWaits: Int { state.withLock { $0.gatheringWaits } }
}
