import PaylogStore

extension BenchRunner {
    /// `append-batched`: one writer appends ``BenchSizes/logEvents`` events of 300 bytes, 1,000 per append (each
    /// append a new stream of 18-byte id), each append durable before the next. The store has no projection, like
    /// the raw baseline has no view.
    func appendBatched() async throws(BenchError) -> BenchResult {
        let raw = try rawBatchedBaseline()
        let total = sizes.logEvents
        let path = workspace.directory("append-batched")
        defer { workspace.discard(path) }
        progress("append-batched: \(total) events, 1,000 per append …")
        let store: EventStore
        do { store = try EventStore(path: path) } catch { throw .store(step: "opening the append-batched store", error) }
        var latencies = LatencyRecorder()
        let memory = MemoryPeakSampler()
        let start = Stopwatch.now()
        var written = 0
        var append = 0
        do {
            while written < total {
                let count = min(1_000, total - written)
                var events: [NewEvent] = []
                events.reserveCapacity(count)
                for index in written..<(written + count) {
                    events.append(NewEvent(id: BenchEventID.make(0, UInt64(index)), type: "BenchEvent", payload: BenchRunner.syntheticPayload))
                }
                let sent = Stopwatch.now()
                _ = try await store.append(events, to: BenchRunner.paymentStreamID(append), expecting: .noStream)
                latencies.record(since: sent)
                written += count
                append += 1
            }
        } catch {
            _ = memory.stop()
            store.close()
            throw .store(step: "appending batches of 1,000 events", error)
        }
        let end = Stopwatch.now()
        let peaks = memory.stop()
        let commits = store.writerStatistics.commits
        store.close()
        let used = try StoreFootprint.usedBytes(ofEnvironmentAt: path)
        return BenchResult(
            scenario: .appendBatched, events: total, seconds: Stopwatch.seconds(from: start, to: end),
            rawEventsPerSecond: raw.appendEventsPerSecond, latencies: latencies, peakRSSBytes: peaks.resident,
            peakResetWorked: peaks.wasReset, peakAnonymousRSSBytes: peaks.anonymous,
            bytesPerEvent: Double(used) / Double(total), payloadBytesPerEvent: Double(BenchRunner.syntheticPayload.count),
            rawBytesPerEvent: raw.bytesPerEvent, details: ["commits": Double(commits), "events_per_append": 1_000])
    }
}
