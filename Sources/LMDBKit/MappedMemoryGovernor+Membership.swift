import Synchronization

extension MappedMemoryGovernor {
    /// One environment's place in the governor's looks: ended by ``stop()`` (a look already under way may still
    /// call its release once).
    final class Membership: Sendable {
        /// The governor's key for this membership.
        let id: UInt64
        private let governor: MappedMemoryGovernor
        private let release: @Sendable (Int) -> Bool
        private let releases = Atomic<Int>(0)
        private let stopped = Atomic<Bool>(false)

        /// A membership of `governor` under `id`, calling `release` at each look.
        init(id: UInt64, governor: MappedMemoryGovernor, release: @escaping @Sendable (Int) -> Bool) {
            self.id = id
            self.governor = governor
            self.release = release
        }

        /// How many looks released the environment's pages so far.
        var releaseCount: Int { releases.load(ordering: .relaxed) }

        /// Leaves the governor's looks. Stopping twice is harmless.
        func stop() {
            guard !stopped.exchange(true, ordering: .relaxed) else { return }
            governor.unregister(id)
        }

        /// One look of the governor's thread, which read `resident` bytes of resident file-backed memory; returns
        /// whether the environment released anything.
        func look(_ resident: Int) -> Bool {
            guard !stopped.load(ordering: .relaxed), release(resident) else { return false }
            releases.add(1, ordering: .relaxed)
            return true
        }
    }
}
