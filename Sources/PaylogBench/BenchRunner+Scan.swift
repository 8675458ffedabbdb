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
        let read = try readEveryEvent(of: log, step: "scanning the log") { _ in }
        return read.result(
            .scan, log: log, rawEventsPerSecond: raw.scanEventsPerSecond, rawBytesPerEvent: raw.bytesPerEvent)
    }

    /// Reads every event of `log` in log order, in pages of 10,000 events (one read transaction each), calling
    /// `body` with each and counting its payload's bytes; fails when the store cannot be opened or read, `body`
    /// throws, or the log holds another number of events than it was built with. `step` names the work in errors.
    func readEveryEvent(
        of log: BuiltPaymentLog, step: String, _ body: (RecordedEvent) throws -> Void
    ) throws(BenchError) -> LogRead {
        let store: EventStore
        do {
            store = try EventStore(path: log.path, projections: [PaymentsProjection()])
        } catch {
            throw .store(step: "opening the payment log for \(step)", error)
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
                try body(event)
                count += 1
                payloadBytes &+= event.payloadByteCount
                if count % pageSize == 0 { lap = latencies.record(since: lap) }
                return true
            }
        } catch {
            _ = memory.stop()
            throw .wrapping(error, step: step)
        }
        if count % pageSize != 0 { latencies.record(since: lap) }
        let end = Stopwatch.now()
        let peaks = memory.stop()
        guard count == log.events else {
            throw .failed(step: step, reason: "read \(count) events of the \(log.events) appended")
        }
        return LogRead(
            count: count, payloadBytes: payloadBytes, seconds: Stopwatch.seconds(from: start, to: end),
            latencies: latencies, peaks: peaks, pageSize: pageSize)
    }
}
