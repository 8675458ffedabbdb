/// The memory peaks of one scenario.
struct MemoryPeaks: Sendable, Hashable {
    /// `VmHWM` at the end of the scenario, in bytes.
    var resident: Int
    /// The largest sampled `RssAnon`, in bytes.
    var anonymous: Int
    /// Whether `VmHWM` was reset when the scenario started (else it is the process's peak since start).
    var wasReset: Bool
}
