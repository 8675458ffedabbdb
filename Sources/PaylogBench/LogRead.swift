/// What one read of the whole shared payment log measured (`scan`, `decode`).
struct LogRead {
    /// Events read.
    var count: Int
    /// Their payloads' bytes as appended (read from each frame's header, not decompressed).
    var payloadBytes: Int
    /// Wall time of the read, in seconds.
    var seconds: Double
    /// One sample per page.
    var latencies: LatencyRecorder
    /// The process's memory peaks during the read.
    var peaks: MemoryPeaks
    /// Events per page (and per read transaction).
    var pageSize: Int

    /// The figures of `scenario`, which read `log` this way; `page_size` is added to `details`.
    func result(
        _ scenario: BenchScenario, log: BuiltPaymentLog, rawEventsPerSecond: Double? = nil,
        rawBytesPerEvent: Double? = nil, details: [String: Double] = [:]
    ) -> BenchResult {
        BenchResult(
            scenario: scenario, events: count, seconds: seconds, rawEventsPerSecond: rawEventsPerSecond,
            latencies: latencies, peakRSSBytes: peaks.resident, peakResetWorked: peaks.wasReset,
            peakAnonymousRSSBytes: peaks.anonymous, bytesPerEvent: log.bytesPerEvent,
            payloadBytesPerEvent: Double(payloadBytes) / Double(max(count, 1)), rawBytesPerEvent: rawBytesPerEvent,
            details: details.merging(["page_size": Double(pageSize)]) { mine, _ in mine })
    }
}
