import CLMDB
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one thread of the process that keeps the pages of every ``Environment`` with a
/// ``EnvironmentOptions/mappedMemoryBudget`` under that budget: every few milliseconds it reads the process's
/// resident file-backed memory (one `pread` of `/proc/self/statm`) and hands the figure to each budgeted environment,
/// which releases its map's pages a slice at a time (``MapSweep``) when the figure is over its budget, until the
/// process is back under three quarters of it.
///
/// Why a thread rather than checks between transactions: one transaction can touch thousands of pages scattered
/// over the file — an ingest batch of 8,192 lines, or the `mdb_drop` of a superseded view when a store opens — and
/// a kernel that keeps the file in large page-cache folios maps a whole folio, up to megabytes, on each fault
/// (Linux 6.18; a file read in by `cat`, `cp` or a backup tool is kept that way; since `SinglePageFaults`, only
/// where the kernel refuses one-page faults). Releasing after each commit left ingest into a 10 M-event log at
/// 0.5–1 GB; a look every 5 ms bounds the growth whatever code is running (Docs/performance.md, *Mapped memory*).
/// Not within a single LMDB call that maps faster than that: one `mdb_drop` at open mapped 1.8 GB in 70 ms (before
/// one-page faults; 205–228 MB peaks since).
///
/// Why one thread for the process rather than one per environment: the figure is the process's, so every budgeted
/// environment reads the same one. With a thread each, a process holding many stores (the test suite holds a few
/// hundred at its peak) woke a few hundred threads every 5 ms, each to read the same file.
///
/// The thread runs while an environment is registered, and ends at the first look that finds none; the next
/// ``register(_:)`` starts a new one.
final class MappedMemoryGovernor: Sendable {
    /// How often the thread looks.
    static let periodMicroseconds: UInt32 = 5_000

    /// The process's governor.
    static let shared = MappedMemoryGovernor()

    /// What the thread asks at each look.
    private struct State: ~Copyable {
        var members: [UInt64: Membership] = [:]
        var nextID: UInt64 = 0
        /// Whether a thread is running (or about to end at its next look, having found no members, in which case
        /// it already set this false).
        var running = false
    }

    private let state = Mutex(State())
    /// Whether members get a thread; without one (tests) looks happen only through ``look(resident:)``.
    private let startsThreads: Bool
    /// The name its thread runs under.
    private let name: String

    /// A governor; the process's is ``shared``. One that `startsThreads: false` never looks on its own (tests drive
    /// it with ``look(resident:)``); a test's own that does names its thread apart from the process's (`name`).
    init(startsThreads: Bool = true, name: String = MappedMemoryGovernor.threadName) {
        self.startsThreads = startsThreads
        self.name = name
    }

    /// Registers `release`, which the thread calls at every look with the process's resident file-backed bytes and
    /// which returns whether it released anything, until the membership's ``Membership/stop()``. Nil where the
    /// thread cannot be made (or off Linux, where `/proc/self/statm` is missing).
    func register(_ release: @escaping @Sendable (_ residentFileBytes: Int) -> Bool) -> Membership? {
        #if os(Linux)
        return state.withLock { state -> Membership? in
            let membership = Membership(id: state.nextID, governor: self, release: release)
            state.nextID += 1
            if startsThreads && !state.running {
                guard startThread() else { return nil }
                state.running = true
            }
            state.members[membership.id] = membership
            return membership
        }
        #else
        return nil
        #endif
    }

    /// Whether the thread is running (for tests: it ends at the first look that finds no member).
    var isThreadRunning: Bool { state.withLock { $0.running } }

    /// Ends membership `id` (``Membership/stop()``).
    func unregister(_ id: UInt64) {
        state.withLock { _ = $0.members.removeValue(forKey: id) }
    }

    /// Starts the thread; false when it cannot be made. Called with `state` locked.
    private func startThread() -> Bool {
        #if os(Linux)
        var thread = pthread_t()
        // The thread holds the governor until it ends.
        let retained = Unmanaged.passRetained(self)
        let created = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<MappedMemoryGovernor>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, retained.toOpaque())
        guard created == 0 else {
            retained.release()
            return false
        }
        pthread_detach(thread)
        return true
        #else
        return false
        #endif
    }

    /// The name the process's thread runs under, as `/proc/PID/task/TID/comm` and crash backtraces show it.
    static let threadName = "paylog-budget"

    private func run() {
        #if os(Linux)
        _ = paylog_name_this_thread(name)
        #endif
        while true {
            usleep(Self.periodMicroseconds)
            let members: [Membership]? = state.withLock { state in
                if state.members.isEmpty {
                    state.running = false
                    return nil
                }
                return Array(state.members.values)
            }
            guard let members else { return }
            guard let resident = Environment.residentSharedBytes() else { continue }
            look(members, resident: resident)
        }
    }

    /// One look over every member, as the thread makes it, with the process's resident file-backed memory at
    /// `resident` bytes (for tests of a governor that `startsThreads: false`).
    func look(resident: Int) {
        look(state.withLock { Array($0.members.values) }, resident: resident)
    }

    private func look(_ members: [Membership], resident: Int) {
        var resident = resident
        for member in members where member.look(resident) {
            // What one member released, the next need not: they see the figure as it is now.
            resident = Environment.residentSharedBytes() ?? resident
        }
    }
}
