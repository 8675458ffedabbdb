import PaylogStore

/// How far into a payment's history to replay.
public enum HistoryCutoff: Sendable, Hashable {
    /// Every event.
    case all
    /// Events up to and including this stream version.
    case version(UInt64)
    /// Events observed (business time; recorded-at when no observed-at was given) at or before this time.
    case time(Timestamp)

    /// Parses `--at`: a whole number is a version, anything else must be RFC 3339.
    public init?(argument: String) {
        if let version = UInt64(argument) {
            self = .version(version)
        } else if let time = Timestamp(rfc3339: argument) {
            self = .time(time)
        } else {
            return nil
        }
    }
}
