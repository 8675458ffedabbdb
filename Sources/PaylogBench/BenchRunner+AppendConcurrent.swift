import PaylogStore

extension BenchRunner {
    /// `append-concurrent`: ``BenchSizes/concurrentTasks`` tasks append ``BenchSizes/concurrentEvents`` events of
    /// 300 bytes between them, one event per append, each awaiting its durable acknowledgement before the next.
    /// Each task owns its streams (6 events each, as in the raw baseline). Compared with raw LMDB committing one
    /// event per durable transaction on one thread: the gain is group commit's. Reports beside it, as
    /// `floor_events_per_s`, the same events in the same layout written straight on LMDB's C API
    /// (``LayoutFloorBaseline``): the most this disk allows the scenario. The floor runs once before paylog and once
    /// after, and reports their mean: its rate drifts within a run, either way, by up to a fifth, so one run on each
    /// side brackets paylog's (Docs/performance.md, *append-concurrent*).
    func appendConcurrent() async throws(BenchError) -> BenchResult {
        let raw = try rawSingleBaseline()
        let total = sizes.concurrentEvents
        let tasks = min(sizes.concurrentTasks, total)
        let floorBefore = try layoutFloor(events: total, group: tasks, when: "before")
        let path = workspace.directory("append-concurrent")
        defer { workspace.discard(path) }
        progress("append-concurrent: \(total) events, \(tasks) tasks, one event per durable append …")
        let store: EventStore
        do { store = try EventStore(path: path) } catch { throw .store(step: "opening the append-concurrent store", error) }
        let memory = MemoryPeakSampler()
        let start = Stopwatch.now()
        let outcome = await withTaskGroup(of: Result<LatencyRecorder, EventStoreError>.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var latencies = LatencyRecorder()
                    var sequence = 0
                    var stream = ""
                    var index = task
                    while index < total {
                        let event = NewEvent(id: BenchEventID.make(1, UInt64(index)), type: "BenchEvent", payload: BenchRunner.syntheticPayload)
                        // A new stream every 6 events, its id formatted once (the scenario measures paylog's appends,
                        // not the bench's string formatting, which shares the two cores with the writer).
                        if sequence % 6 == 0 { stream = BenchRunner.paymentStreamID((sequence / 6) * tasks + task) }
                        let sent = Stopwatch.now()
                        do throws(EventStoreError) {
                            _ = try await store.append([event], to: stream)
                        } catch {
                            return .failure(error)
                        }
                        latencies.record(since: sent)
                        sequence += 1
                        index += tasks
                    }
                    return .success(latencies)
                }
            }
            var merged = LatencyRecorder()
            var failure: EventStoreError?
            for await result in group {
                switch result {
                case .success(let latencies): merged.merge(latencies)
                case .failure(let error): failure = failure ?? error
                }
            }
            return failure.map { Result<LatencyRecorder, EventStoreError>.failure($0) } ?? .success(merged)
        }
        let end = Stopwatch.now()
        let peaks = memory.stop()
        let statistics = store.writerStatistics
        let (commits, largest) = (statistics.commits, statistics.largestGroup)
        store.close()
        let latencies: LatencyRecorder
        switch outcome {
        case .success(let merged): latencies = merged
        case .failure(let error): throw .store(step: "appending single events from \(tasks) tasks", error)
        }
        let used = try StoreFootprint.usedBytes(ofEnvironmentAt: path)
        let floorAfter = try layoutFloor(events: total, group: tasks, when: "after")
        return BenchResult(
            scenario: .appendConcurrent, events: total, seconds: Stopwatch.seconds(from: start, to: end),
            rawEventsPerSecond: raw.appendEventsPerSecond, latencies: latencies, peakRSSBytes: peaks.resident,
            peakResetWorked: peaks.wasReset, peakAnonymousRSSBytes: peaks.anonymous,
            bytesPerEvent: Double(used) / Double(total), payloadBytesPerEvent: Double(BenchRunner.syntheticPayload.count),
            rawBytesPerEvent: raw.bytesPerEvent,
            details: [
                "tasks": Double(tasks), "commits": Double(commits), "largest_group": Double(largest),
                "mean_group": commits > 0 ? Double(total) / Double(commits) : 0,
                "floor_events_per_s": ((floorBefore + floorAfter) / 2).rounded(),
                "floor_before_events_per_s": floorBefore.rounded(), "floor_after_events_per_s": floorAfter.rounded(),
            ])
    }

    /// The scenario's ceiling on this machine, measured `when` (before or after paylog's run): its events written in
    /// the same layout, `group` per durable commit, straight on LMDB's C API (``LayoutFloorBaseline``).
    private func layoutFloor(events: Int, group: Int, when: String) throws(BenchError) -> Double {
        progress("append-concurrent: the layout's floor \(when) it, \(group) events per durable commit on the C API …")
        let directory = workspace.directory("layout-floor")
        defer { workspace.discard(directory) }
        return try LayoutFloorBaseline.run(directory: directory, commits: max(1, events / group), group: group)
    }
}
