import Foundation

/// Runs the scenarios of `paylog bench`, each on its own temporary store, and measures them.
///
/// What several scenarios share is prepared once per runner, outside every scenario's timed part and memory
/// window: the log of realistic payment events that `replay`, `replay-floor`, `scan`, `decode` and `load-stream`
/// read, and the raw-LMDB baselines. Call ``finish()`` at the end to remove the stores (unless they are kept).
///
/// A runner is used by one task at a time.
public final class BenchRunner {
    /// How much work each scenario does.
    public let sizes: BenchSizes
    /// True: `replay` drops the log's pages from the page cache before its clock starts (``PageCache``).
    public let coldReplay: Bool
    let workspace: BenchWorkspace
    let progress: (String) -> Void
    private var paymentLog: BuiltPaymentLog?
    private var rawBatched: RawLMDBFigures?
    private var rawSingle: RawLMDBFigures?

    /// A runner with `sizes`, keeping its stores in `keep` when given (else in a temporary directory removed by
    /// ``finish()``). `progress` receives a line now and then about what is being prepared or measured. With
    /// `coldReplay`, `replay` reads its log from disk rather than from the page cache.
    public init(
        sizes: BenchSizes = .standard, keep: String? = nil, coldReplay: Bool = false,
        progress: @escaping (String) -> Void = { _ in }
    ) throws(BenchError) {
        self.sizes = sizes
        self.coldReplay = coldReplay
        self.workspace = try BenchWorkspace(keep: keep)
        self.progress = progress
    }

    /// Runs one scenario and returns its figures.
    public func run(_ scenario: BenchScenario) async throws(BenchError) -> BenchResult {
        switch scenario {
        case .appendBatched: return try await appendBatched()
        case .appendConcurrent: return try await appendConcurrent()
        case .replay: return try await replay()
        case .replayFloor: return try await replayFloor()
        case .scan: return try await scan()
        case .decode: return try await decode()
        case .loadStream: return try await loadStream()
        case .ingest: return try await ingest()
        }
    }

    /// Checks before anything runs that `scenarios` can read the payment log kept in the workspace: a kept log of
    /// another size stops the run here, not after the baselines built before the log is needed.
    public func checkKeptPaymentLog(for scenarios: [BenchScenario]) throws(BenchError) {
        guard scenarios.contains(where: \.readsPaymentLog) else { return }
        _ = try workspace.keptPaymentLog(events: sizes.logEvents)
    }

    /// Removes every store of the run, unless the runner keeps them.
    public func finish() {
        workspace.removeAll()
    }

    /// The shared payment log, built on first use.
    func sharedPaymentLog() async throws(BenchError) -> BuiltPaymentLog {
        if let paymentLog { return paymentLog }
        if let kept = try workspace.keptPaymentLog(events: sizes.logEvents) {
            progress("reusing the payment log of \(kept.events) events kept in \(kept.path) (\(BenchWorkspace.paymentLogManifest))")
            paymentLog = kept
            return kept
        }
        progress("building a log of \(sizes.logEvents) realistic payment events (once per run) …")
        let built = try await PaymentLogBuilder.build(
            events: sizes.logEvents, at: workspace.directory("payment-log"), scratch: workspace.directory("template-day"))
        progress(String(format: "built the payment log in %.1f s", built.buildSeconds))
        workspace.keep(built)
        paymentLog = built
        return built
    }

    /// The raw-LMDB batched baseline (1,000 events per durable transaction, then a cursor scan), run on first use.
    func rawBatchedBaseline() throws(BenchError) -> RawLMDBFigures {
        if let rawBatched { return rawBatched }
        progress("raw-LMDB baseline: \(sizes.logEvents) events, 1,000 per durable transaction, then a cursor scan …")
        let directory = workspace.directory("raw-lmdb-batched")
        defer { workspace.discard(directory) }
        let figures = try RawLMDBBaseline.run(directory: directory, events: sizes.logEvents, batch: 1_000, scan: true)
        rawBatched = figures
        return figures
    }

    /// The raw-LMDB one-event-per-durable-commit baseline, run on first use.
    func rawSingleBaseline() throws(BenchError) -> RawLMDBFigures {
        if let rawSingle { return rawSingle }
        progress("raw-LMDB baseline: \(sizes.rawSingleEvents) events, one per durable commit …")
        let directory = workspace.directory("raw-lmdb-single")
        defer { workspace.discard(directory) }
        let figures = try RawLMDBBaseline.run(directory: directory, events: sizes.rawSingleEvents, batch: 1, scan: false)
        rawSingle = figures
        return figures
    }
}

extension BenchRunner {
    /// `payment-` and `number` in 10 digits: 18 bytes, the stream ids of the append scenarios and of the raw baseline.
    static func paymentStreamID(_ number: Int) -> String {
        let digits = String(number)
        return "payment-" + String(repeating: "0", count: max(0, 10 - digits.count)) + digits
    }

    /// 300 bytes: the payload of the append scenarios and of the raw baseline.
    static let syntheticPayload = Data(repeating: UInt8(ascii: "x"), count: 300)
}
