/// What the raw-LMDB baseline measured.
struct RawLMDBFigures: Sendable, Hashable {
    /// Events written.
    var events: Int
    /// Events per durable write transaction.
    var batch: Int
    /// Events appended per second, durable commits included.
    var appendEventsPerSecond: Double
    /// Events read per second by a plain cursor scan, or nil when no scan ran.
    var scanEventsPerSecond: Double?
    /// Used bytes of the environment per event.
    var bytesPerEvent: Double
}
