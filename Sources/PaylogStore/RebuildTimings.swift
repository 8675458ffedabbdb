/// Where a rebuild's wall time went, phase by phase, in seconds
/// (``EventStore/rebuildProjections(chunk:rowsPerTransaction:sortMemory:mappedMemoryLimit:progress:)``): what
/// `paylog rebuild-views` prints and `paylog bench --scenario replay` reports, so that a slow rebuild can be placed
/// without a profiler (Docs/performance.md). Summed over the projections rebuilt.
public struct RebuildTimings: Sendable, Equatable {
    /// Reading where each stream ends (the last `versions` entry of each) before the fold.
    public var streamEnds: Double = 0
    /// Folding the log on its threads, each thread then sorting the rows it still holds in memory.
    public var fold: Double = 0
    /// Merging the sorted rows and writing them into the new generation of the views.
    public var write: Double = 0
    /// Catching the new views up, in log order, with what was appended meanwhile, and making them live.
    public var catchUp: Double = 0
    /// The whole rebuild: the phases above, and starting each new generation and saving its checkpoint.
    public var total: Double = 0

    /// No time spent yet.
    public init() {}
}
