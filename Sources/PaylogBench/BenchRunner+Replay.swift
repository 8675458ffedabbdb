import PaylogStore
import PaylogWorkflow

extension BenchRunner {
    /// `replay`: rebuilds every projection of the shared payment log blue/green, as `paylog rebuild-views` does
    /// (``PaylogStore/EventStore/rebuildProjections(chunk:sortMemory:mappedMemoryLimit:progress:)`` with its
    /// defaults, on the durable store: the status view by folding each payment in memory). One latency sample is one
    /// step: a page of the log read and folded, or a chunk of rows written. The log is built before the clock
    /// starts. With ``coldReplay`` its pages are dropped from the page cache first; either way the share of the log
    /// resident when the clock starts is reported (`log_resident_fraction`).
    func replay() async throws(BenchError) -> BenchResult {
        try await rebuild(.replay, projection: PaymentsProjection(), what: "rebuilding every projection")
    }

    /// `replay-floor`: the same rebuild with ``PaylogWorkflow/PaymentsReadingFloor``, which reads and decodes
    /// every event as the payments fold does and then evolves nothing and writes no view: the most this rebuild
    /// can do on the log and the machine (its design's floor), measured beside `replay` in the same run. No target of its own.
    func replayFloor() async throws(BenchError) -> BenchResult {
        try await rebuild(.replayFloor, projection: PaymentsReadingFloor(), what: "reading and decoding the log as a rebuild does, folding nothing")
    }

    /// Rebuilds `projection` alone on the shared payment log, as `replay` describes, and measures it as
    /// `scenario`. A projection the log has no checkpoint of is first caught up when the store opens, before the
    /// clock starts (``PaymentsReadingFloor`` keeps no view, so that is a read of the log).
    private func rebuild(
        _ scenario: BenchScenario, projection: any StreamFoldingProjection, what: String
    ) async throws(BenchError) -> BenchResult {
        let log = try await sharedPaymentLog()
        progress("\(scenario): \(what) from \(log.events) events …")
        func open() throws(BenchError) -> EventStore {
            do {
                return try EventStore(path: log.path, projections: [projection])
            } catch {
                throw .store(step: "opening the payment log for \(scenario)", error)
            }
        }
        if coldReplay {
            // An open that catches a projection new to the log up reads the log through the map, and pages still
            // mapped cannot be dropped from the page cache: that open is made and closed (unmapping them) first, so
            // that the one measured has nothing to catch up.
            try open().close()
        }
        let store = try open()
        defer { store.close() }
        let file = log.path + "/data.mdb"
        if coldReplay {
            progress("\(scenario): dropping the log's pages from the page cache (--cold) …")
            try PageCache.drop(file)
        }
        let resident = PageCache.residentFraction(of: file)
        let laps = LapRecorder()
        let memory = MemoryPeakSampler()
        let start = Stopwatch.now()
        laps.restart()
        let phases: RebuildTimings
        do {
            phases = try await store.rebuildProjections { _, _ in laps.lap() }
        } catch {
            _ = memory.stop()
            throw .wrapping(error, step: "rebuilding the projections")
        }
        let end = Stopwatch.now()
        let peaks = memory.stop()
        return BenchResult(
            scenario: scenario, events: log.events, seconds: Stopwatch.seconds(from: start, to: end), rawEventsPerSecond: nil,
            latencies: laps.latencies, peakRSSBytes: peaks.resident, peakResetWorked: peaks.wasReset,
            peakAnonymousRSSBytes: peaks.anonymous, bytesPerEvent: log.bytesPerEvent,
            payloadBytesPerEvent: log.payloadBytesPerEvent, rawBytesPerEvent: nil,
            details: [
                "log_build_seconds": log.buildSeconds, "payments": Double(log.streamCount), "cold": coldReplay ? 1 : 0,
                "log_resident_fraction": resident ?? -1,
                // Where the time went (seconds of wall time): reading the stream ends, the fold on its threads, the
                // merge and writing of the sorted rows, the catch-up with appends made meanwhile.
                "stream_ends_s": phases.streamEnds, "fold_s": phases.fold, "write_s": phases.write,
                "catch_up_s": phases.catchUp,
            ])
    }
}
