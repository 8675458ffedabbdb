import PaylogStore
import PaylogWorkflow

extension BenchRunner {
    /// `scan`: reads and decodes the envelope of every event of the shared payment log with
    /// ``PaylogStore/EventStore/forEach(from:pageSize:_:)`` (pages of 10,000 events, one read transaction each),
    /// no projection. One latency sample is one page. Compared with the raw baseline's cursor scan.
    func scan() async throws(BenchError) -> BenchResult {
        let raw = try rawBatchedBaseline()
        let log = try await sharedPaymentLog()
        progress("scan: reading and decoding \(log.events) envelopes …")
        let store: EventStore
        do {
            store = try EventStore(path: log.path, projections: [PaymentsProjection()])
        } catch {
            throw .store(step: "opening the payment log for a scan", error)
        }
        defer { store.close() }
        let pageSize = 10_000
        var latencies = LatencyRecorder()
        var count = 0
        var payloadBytes = 0
        let memory = MemoryPeakSampler()
        let start = Stopwatch.now()
        var lap = start
        do {
            try store.forEach(pageSize: pageSize) { event in
                count += 1
                payloadBytes &+= event.payloadByteCount
                if count % pageSize == 0 { lap = latencies.record(since: lap) }
                return true
            }
        } catch {
            _ = memory.stop()
            throw .wrapping(error, step: "scanning the log")
        }
        if count % pageSize != 0 { latencies.record(since: lap) }
        let end = Stopwatch.now()
        let peaks = memory.stop()
        guard count == log.events else {
            throw .failed(step: "scanning the log", reason: "read \(count) events of the \(log.events) appended")
        }
        return BenchResult(
            scenario: .scan, events: count, seconds: Stopwatch.seconds(from: start, to: end),
            rawEventsPerSecond: raw.scanEventsPerSecond, latencies: latencies, peakRSSBytes: peaks.resident,
            peakResetWorked: peaks.wasReset, peakAnonymousRSSBytes: peaks.anonymous, bytesPerEvent: log.bytesPerEvent,
            payloadBytesPerEvent: Double(payloadBytes) / Double(max(count, 1)), rawBytesPerEvent: raw.bytesPerEvent,
            details: ["page_size": Double(pageSize)])
    }
}
