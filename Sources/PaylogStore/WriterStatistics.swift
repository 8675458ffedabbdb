import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Counters the writer keeps about its group commits.
public final class WriterStatistics: Sendable {
    private let state = Mutex<(commits: Int, appends: Int, largestGroup: Int, gatheringWaits: Int)>((0, 0, 0, 0))
    private let observer = Mutex<(@Sendable (Int) -> Void)?>(nil)
    /// The writer thread's CPU time when it last finished a job, in nanoseconds.
    private let cpuNanoseconds = Atomic<Int64>(0)

    func record(groupSize: Int) {
        state.withLock { value in
            value.commits += 1
            value.appends += groupSize
            value.largestGroup = max(value.largestGroup, groupSize)
        }
        observer.withLock { $0 }?(groupSize)
    }

    /// Notes the calling thread's CPU time: called by the writer thread after each job.
    func recordWriterCPUTime() {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return }
        cpuNanoseconds.store(Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec), ordering: .relaxed)
    }

    func recordGatheringWait() {
        state.withLock { $0.gatheringWaits += 1 }
    }

    /// Calls `body` with the number of appends in each group commit from now on, on the writer thread, after the
    /// commit (metrics). Keep it quick: the next group waits for it. A later call replaces the observer.
    public func observeGroupCommits(_ body: @escaping @Sendable (Int) -> Void) {
        observer.withLock { $0 = body }
    }

    /// Write transactions committed so far.
    public var commits: Int { state.withLock { $0.commits } }
    /// Appends answered so far (successful or not).
    public var appends: Int { state.withLock { $0.appends } }
    /// The most appends committed together.
    public var largestGroup: Int { state.withLock { $0.largestGroup } }
    /// The CPU time the writer thread had used when it finished its last job, in seconds: the difference over a
    /// piece of work is what the writer spent on it (`paylog bench` reports it per event, to tell whether the
    /// writer is the limit).
    public var writerCPUSeconds: Double { Double(cpuNanoseconds.load(ordering: .relaxed)) / 1e9 }
    /// Times the writer waited for callers it had just answered to join its next group (``CommitGathering``).
    /// Callers that each await their append one after the other never cause a wait.
    public var gatheringWaits: Int { state.withLock { $0.gatheringWaits } }
}
