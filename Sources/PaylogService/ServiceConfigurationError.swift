/// Why a `paylog serve` configuration was refused.
public enum ServiceConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not exist or cannot be read.
    case unreadable(String)
    /// The file or options hold an invalid or unknown field.
    case invalid(String, String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .unreadable(let path): return "Cannot read the configuration file \(path); check the path and its permissions."
        case .invalid(let source, let detail): return "Invalid configuration in \(source): \(detail). See Docs/operations.md for the fields."
        }
    }
}
