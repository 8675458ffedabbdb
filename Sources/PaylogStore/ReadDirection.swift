/// The order in which a stream is read.
public enum ReadDirection: Sendable, Hashable {
    /// Ascending versions.
    case forward
    /// Descending versions.
    case backward
}
