import PaylogStore
import PaylogWorkflow

extension BenchRunner {
    /// `ingest`: about ``BenchSizes/ingestEvents`` events' worth of JSON Lines observations (seeded demo days of
    /// every provider and scenario, about 4 events per payment; see ``ObservationDays``) recorded through
    /// ``PaylogWorkflow/PaymentWorkflow/ingest(lines:defaultKind:)`` into a new durable store with the payment views,
    /// as `paylog ingest` does. The lines are generated before the clock starts; one latency sample is one line.
    func ingest() async throws(BenchError) -> BenchResult {
        let payments = max(1, sizes.ingestEvents / 4)
        let lines = try ObservationDays.lines(payments: payments)
        let path = workspace.directory("ingest")
        defer { workspace.discard(path) }
        progress("ingest: \(lines.count) observation lines of \(payments) payments, durable …")
        let store: EventStore
        do { store = try PaymentWorkflow.openStore(at: path) } catch { throw .store(step: "opening the ingest store", error) }
        let workflow = PaymentWorkflow(store: store, actor: "bench")
        let timed = TimedLines(lines)
        let memory = MemoryPeakSampler()
        let writerBefore = store.writerStatistics.writerCPUSeconds
        let processBefore = Stopwatch.processCPUSeconds()
        let start = Stopwatch.now()
        let report = await workflow.ingest(lines: timed)
        let end = Stopwatch.now()
        let processSeconds = Stopwatch.processCPUSeconds() - processBefore
        let writerSeconds = store.writerStatistics.writerCPUSeconds - writerBefore
        let peaks = memory.stop()
        guard report.rejected == 0 else {
            store.close()
            throw .rejectedObservations(
                count: report.rejected, firstError: report.errors.first.map { "line \($0.line): \($0.message)" } ?? "")
        }
        var payloadBytes = 0
        do {
            try store.forEach { event in
                payloadBytes += event.payloadByteCount
                return true
            }
        } catch {
            store.close()
            throw .wrapping(error, step: "measuring the ingested payloads")
        }
        store.close()
        let events = report.eventsAppended
        let used = try StoreFootprint.usedBytes(ofEnvironmentAt: path)
        let inputBytes = lines.reduce(0) { $0 + $1.utf8.count + 1 }
        let seconds = Stopwatch.seconds(from: start, to: end)
        return BenchResult(
            scenario: .ingest, events: events, seconds: seconds, rawEventsPerSecond: nil, latencies: timed.latencies,
            peakRSSBytes: peaks.resident, peakResetWorked: peaks.wasReset, peakAnonymousRSSBytes: peaks.anonymous,
            bytesPerEvent: Double(used) / Double(max(events, 1)),
            payloadBytesPerEvent: Double(payloadBytes) / Double(max(events, 1)), rawBytesPerEvent: nil,
            details: [
                "lines": Double(lines.count), "lines_per_s": Double(lines.count) / seconds,
                "input_bytes_per_event": Double(inputBytes) / Double(max(events, 1)),
                // The writer thread's CPU time per event: next to 1e6 / events_per_s, it says how much of the
                // time the writer was the limit.
                "writer_cpu_us_per_event": writerSeconds * 1e6 / Double(max(events, 1)),
                // The whole process's CPU time per event (the parsing side, the writer, the memory sampler): on two
                // cores, the rate cannot pass 2e6 / this.
                "process_cpu_us_per_event": processSeconds * 1e6 / Double(max(events, 1)),
            ])
    }
}
