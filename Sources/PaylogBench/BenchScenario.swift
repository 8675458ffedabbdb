/// One workload of `paylog bench`. The raw values are the names `--scenario` takes and the `scenario` field of
/// the JSON output.
public enum BenchScenario: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// One writer appending 1,000 events of 300 bytes per append, each append durable.
    case appendBatched = "append-batched"
    /// 64 concurrent tasks, one event per append, each awaiting its durable (fsync'd) acknowledgement.
    case appendConcurrent = "append-concurrent"
    /// Rebuilding every projection blue/green
    /// (``PaylogStore/EventStore/rebuildProjections(chunk:sortMemory:mappedMemoryLimit:progress:)``) from a log of
    /// realistic payment events.
    case replay
    /// The `replay` rebuild with nothing folded: every event read and its payload decoded as the payments fold does,
    /// no payment evolved, no view written (``PaylogWorkflow/PaymentsReadingFloor``). The most this rebuild can do
    /// on the log and the machine; no target of its own.
    case replayFloor = "replay-floor"
    /// Reading and decoding every envelope of the log, no projection.
    case scan
    /// Reading every event of the log and decoding its payload into the domain's ``PaylogDomain/PaymentEvent``, on
    /// one thread, no projection: the work the Python peer's "replay" does (`select_notifications` and
    /// `to_domain_event` over its whole log), measured so that the two can be compared like for like.
    case decode
    /// The state of one random payment at a random version (time travel through the log, not a view).
    case loadStream = "load-stream"
    /// JSON Lines observations recorded through the workflow, as `paylog ingest` does, durably.
    case ingest

    /// The scenario's name.
    public var description: String { rawValue }

    /// What one latency sample of the scenario measures.
    public var operation: String {
        switch self {
        case .appendBatched: "one append of 1,000 events"
        case .appendConcurrent: "one append of 1 event, from submission to durable acknowledgement"
        case .replay, .replayFloor: "one rebuild step (a page of the log read and folded, or a chunk of rows written)"
        case .scan, .decode: "one page of 10,000 events"
        case .loadStream: "one stream loaded and replayed to a version"
        case .ingest: "one observation line"
        }
    }

    /// Whether the scenario reads the shared log of realistic payment events (built once per run).
    var readsPaymentLog: Bool {
        switch self {
        case .replay, .replayFloor, .scan, .decode, .loadStream: true
        case .appendBatched, .appendConcurrent, .ingest: false
        }
    }

    /// The scenario named `name`, or nil.
    public init?(name: String) {
        self.init(rawValue: name.lowercased())
    }
}
