/// How much work each scenario does.
///
/// The defaults suit the 2-core build machine: a 1 M-event log for `append-batched`, `replay`, `scan` and
/// `load-stream` (as issue 6 asks), and fewer events where every operation waits for its own fsync
/// (`append-concurrent`, `ingest`), which would otherwise take minutes without telling more.
public struct BenchSizes: Sendable, Hashable {
    /// Events appended by `append-batched`, and the size of the payment log `replay`, `scan`, `decode` and
    /// `load-stream` read.
    public var logEvents: Int
    /// Events appended by `append-concurrent` (spread over ``concurrentTasks`` tasks).
    public var concurrentEvents: Int
    /// Concurrent appending tasks in `append-concurrent`.
    public var concurrentTasks: Int
    /// Events (approximately: whole payments of observations) recorded by `ingest`.
    public var ingestEvents: Int
    /// Streams loaded by `load-stream`.
    public var lookups: Int
    /// Events of the raw-LMDB one-event-per-durable-commit baseline (the reference of `append-concurrent`).
    public var rawSingleEvents: Int

    /// Explicit sizes.
    public init(logEvents: Int, concurrentEvents: Int, concurrentTasks: Int = 64, ingestEvents: Int, lookups: Int, rawSingleEvents: Int) {
        self.logEvents = max(logEvents, 1)
        self.concurrentEvents = max(concurrentEvents, 1)
        self.concurrentTasks = max(concurrentTasks, 1)
        self.ingestEvents = max(ingestEvents, 1)
        self.lookups = max(lookups, 1)
        self.rawSingleEvents = max(rawSingleEvents, 1)
    }

    /// The defaults: 1,000,000 log events, 50,000 concurrent appends, 20,000 ingested events, 20,000 lookups and
    /// 5,000 raw single commits (as `run-references.sh` does).
    public static let standard = BenchSizes(events: 1_000_000)

    /// Sizes scaled from one figure, as `paylog bench --events N` uses them: `N` log events; `append-concurrent`
    /// N/20 (at least 64, one per task); `ingest` N/50 (at least 50); `load-stream` N/50 lookups (100…20,000);
    /// raw single commits N/200 (100…5,000).
    public init(events: Int) {
        let n = max(events, 1)
        self.init(
            logEvents: n, concurrentEvents: max(n / 20, 64), ingestEvents: max(n / 50, 50),
            lookups: min(max(n / 50, 100), 20_000), rawSingleEvents: min(max(n / 200, 100), 5_000))
    }
}
