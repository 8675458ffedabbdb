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
    /// Why each rejected line was rejected.
    public var errors: [LineError] = []

    /// An empty report.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case lines, accepted, rejected, errors
        case eventsAppended = "events_appended"
    }
}
