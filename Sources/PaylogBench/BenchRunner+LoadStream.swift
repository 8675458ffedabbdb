import PaylogStore
import PaylogWorkflow

extension BenchRunner {
    /// `load-stream`: ``BenchSizes/lookups`` times, the state of a random payment of the shared log at a random
    /// version, replayed from its stream by ``PaylogWorkflow/PaymentHistory`` (time travel, never a view). The
    /// choices are seeded, so every run asks the same questions. `events` counts lookups; one latency sample is one.
    /// `one_page_faults` in the details says whether the store's map faulted one page at a time
    /// (``PaylogStore/EventStore/mapsOnePagePerFault``).
    func loadStream() async throws(BenchError) -> BenchResult {
        let log = try await sharedPaymentLog()
        let lookups = sizes.lookups
        progress("load-stream: \(lookups) random payments at random versions …")
        let store: EventStore
        do {
            store = try EventStore(path: log.path, projections: [PaymentsProjection()])
        } catch {
            throw .store(step: "opening the payment log for load-stream", error)
        }
        defer { store.close() }
        var random = SplitMix64(seed: 0x5EED)
        var latencies = LatencyRecorder()
        var eventsRead = 0
        let memory = MemoryPeakSampler()
        let start = Stopwatch.now()
        for _ in 0..<lookups {
            let stream = log.stream(at: Int(random.next() % UInt64(log.streamCount)))
            let version = 1 + random.next() % stream.version
            let sent = Stopwatch.now()
            let steps: [HistoryStep]
            do {
                steps = try PaymentHistory.steps(of: stream.id, in: store, upTo: .version(version))
            } catch {
                _ = memory.stop()
                throw .wrapping(error, step: "loading payment \(stream.id) at version \(version)")
            }
            latencies.record(since: sent)
            guard steps.count == Int(version), steps.last?.state.id == stream.id else {
                _ = memory.stop()
                throw .failed(step: "loading payment \(stream.id) at version \(version)", reason: "got \(steps.count) steps")
            }
            eventsRead += steps.count
        }
        let end = Stopwatch.now()
        let peaks = memory.stop()
        return BenchResult(
            scenario: .loadStream, events: lookups, seconds: Stopwatch.seconds(from: start, to: end), rawEventsPerSecond: nil,
            latencies: latencies, peakRSSBytes: peaks.resident, peakResetWorked: peaks.wasReset,
            peakAnonymousRSSBytes: peaks.anonymous, bytesPerEvent: log.bytesPerEvent,
            payloadBytesPerEvent: log.payloadBytesPerEvent, rawBytesPerEvent: nil,
            details: [
                "events_replayed": Double(eventsRead), "log_events": Double(log.events),
                // 1 where each fault in the budgeted map brought in one page (Linux 6.7+), 0 where the kernel's
                // fault-around mapped 16: the figures are not comparable across the two.
                "one_page_faults": store.mapsOnePagePerFault ? 1 : 0,
            ])
    }
}
