/// What `paylog ingest` (and `POST /v1/observations`) did with a batch of JSON Lines observations.
public struct IngestReport: Sendable, Hashable, Codable {
    /// One rejected line.
    public struct LineError: Sendable, Hashable, Codable {
        /// The 1-based line number.
        public var line: Int
        /// Why the line was rejected.
        public var message: String
    }

    /// Non-blank lines read.
    public var lines = 0
    /// Lines recorded (including ones already recorded before, which append nothing).
    public var accepted = 0
    /// Lines rejected.
    public var rejected = 0
    /// Events appended to the log.
    public var eventsAppended = 0
    /// Why each rejected line was rejected: those of the first ``maximumListedErrors`` rejected lines, in line order
    /// (whatever order a batch ingest found them in).
    public var errors: [LineError] = []
    /// Rejected lines beyond those listed in ``errors`` (counted in ``rejected``, their reasons not kept).
    public var errorsOmitted = 0
    /// The most reasons a report lists. Every line of a 32 MiB body of `{}` lines is rejected: listed whole, the
    /// report was about 22 times the body, in memory and in the answer.
    public static let maximumListedErrors = 1_000
    /// The first line not recorded because the store failed to commit (a full disk, an I/O error): recording
    /// stopped there, and nothing from it on was recorded or counted; nil when every line was recorded or rejected.
    public var stoppedAtLine: Int?
    /// Why the store failed, when ``stoppedAtLine`` is set.
    public var storeError: String?

    /// An empty report.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case lines, accepted, rejected, errors
        case eventsAppended = "events_appended"
        case errorsOmitted = "errors_omitted"
        case stoppedAtLine = "stopped_at_line"
        case storeError = "store_error"
    }
}
