import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread that keeps the pages an ``Environment`` has mapped under its ``EnvironmentOptions/mappedMemoryBudget``:
/// every few milliseconds it reads the process's resident file-backed memory (one `pread` of `/proc/self/statm`)
/// and, when it is over the budget, releases the map's pages a slice at a time (``MapSweep``) until it is back
/// under three quarters of it.
///
/// Why a thread rather than checks between transactions: one transaction can touch thousands of pages scattered
/// over the file — an ingest batch of 8,192 lines, or the `mdb_drop` of a superseded view when a store opens — and
/// a kernel that keeps the file in large page-cache folios maps a whole folio, up to megabytes, on each fault
/// (Linux 6.18; a file read in by `cat`, `cp` or a backup tool is kept that way; since `SinglePageFaults`, only
/// where the kernel refuses one-page faults). Releasing after each commit left ingest into a 10 M-event log at
/// 0.5–1 GB; a look every 5 ms bounds the growth whatever code is running, for 200 `pread`s a second (Docs/performance.md, *Mapped memory*). Not within a single LMDB call that maps faster
/// than that: one `mdb_drop` at open mapped 1.8 GB in 70 ms (before one-page faults; 205–228 MB peaks since).
///
/// The environment's `release` closure holds it weakly; the thread ends within one period of ``stop()``.
final class MappedMemoryGovernor: Sendable {
    /// How often the thread looks.
    static let periodMicroseconds: UInt32 = 5_000

    private let stopped = Atomic<Bool>(false)
    /// How many times the thread released the map's pages.
    private let releases = Atomic<Int>(0)
    private let release: @Sendable () -> Bool

    private init(release: @escaping @Sendable () -> Bool) {
        self.release = release
    }

    /// Starts a thread calling `release` (which returns whether it released anything) every ``periodMicroseconds``
    /// until ``stop()``; nil where the thread cannot be made (or off Linux, where `/proc/self/statm` is missing).
    static func start(_ release: @escaping @Sendable () -> Bool) -> MappedMemoryGovernor? {
        #if os(Linux)
        let governor = MappedMemoryGovernor(release: release)
        // The thread holds the governor until it ends; the governor holds nothing of the environment but `release`.
        let retained = Unmanaged.passRetained(governor)
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            let governor = Unmanaged<MappedMemoryGovernor>.fromOpaque(raw).takeRetainedValue()
            governor.run()
            return nil
        }, retained.toOpaque())
        guard created == 0 else {
            retained.release()
            return nil
        }
        pthread_detach(thread)
        return governor
        #else
        return nil
        #endif
    }

    /// Asks the thread to end; it does within one period.
    func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    /// How many times the thread has released the map's pages so far.
    var releaseCount: Int { releases.load(ordering: .relaxed) }

    private func run() {
        while !stopped.load(ordering: .relaxed) {
            usleep(Self.periodMicroseconds)
            if stopped.load(ordering: .relaxed) { return }
            if release() { releases.add(1, ordering: .relaxed) }
        }
    }
}
