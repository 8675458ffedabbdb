/// What the caller believes a stream's version is before an append: the optimistic-concurrency check.
public enum ExpectedVersion: Sendable, Hashable, CustomStringConvertible {
    /// Append whatever the stream's version is.
    case any
    /// The stream must not exist yet.
    case noStream
    /// The stream's last event must have exactly this version (1-based).
    case exact(UInt64)

    /// `any`, `no stream` or the version number.
    public var description: String {
        switch self {
        case .any: return "any"
        case .noStream: return "no stream"
        case .exact(let version): return "version \(version)"
        }
    }

    /// True when a stream whose last version is `actual` (0 for a stream that does not exist) satisfies it.
    public func accepts(actual: UInt64) -> Bool {
        switch self {
        case .any: return true
        case .noStream: return actual == 0
        case .exact(let version): return actual == version
        }
    }
}
