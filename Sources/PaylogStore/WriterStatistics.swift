import Synchronization

/// Counters the writer keeps about its group commits.
public final class WriterStatistics: Sendable {
    private let state = Mutex<(commits: Int, appends: Int, largestGroup: Int, gatheringWaits: Int)>((0, 0, 0, 0))
    private let observer = Mutex<(@Sendable (Int) -> Void)?>(nil)

    func record(groupSize: Int) {
        state.withLock { value in
            value.commits += 1
            value.appends += groupSize
            value.largestGroup = max(value.largestGroup, groupSize)
        }
        observer.withLock { $0 }?(groupSize)
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
    /// Times the writer waited for callers it had just answered to join its next group (``CommitGathering``).
    /// Callers that each await their append one after the other never cause a wait.
    public var gatheringWaits: Int { state.withLock { $0.gatheringWaits } }
}
