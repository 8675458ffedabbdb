/// What one read of the whole shared payment log measured (`scan`, `decode`).
struct LogRead {
    /// Events read.
    var count: Int
    /// Wall time of the read, in seconds.
    var seconds: Double
    /// One sample per page.
    var latencies: LatencyRecorder
    /// The process's memory peaks during the read.
    var peaks: MemoryPeaks
    /// Events per page (and per read transaction).
    var pageSize: Int
}
