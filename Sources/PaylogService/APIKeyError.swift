/// Why an API key could not be added, found or revoked.
public enum APIKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A scope name that is not `ingest`, `read`, `audit` or `admin`.
    case unknownScope(String)
    /// `--scopes` named none.
    case noScopes
    /// The key name is empty, too long or has characters other than letters, digits, `-`, `_` and `.`.
    case invalidName(String)
    /// A key with this name exists already.
    case duplicateName(String)
    /// No key has this name.
    case unknownName(String)
    /// The key database could not be read or written.
    case storage(String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .unknownScope(let word): return "'\(word)' is not a scope; use ingest, read, audit or admin (comma-separated)."
        case .noScopes: return "A key needs at least one scope: ingest, read, audit or admin."
        case .invalidName(let name): return "'\(name)' is not a valid key name: use 1–64 letters, digits, '-', '_' or '.'."
        case .duplicateName(let name): return "A key named '\(name)' exists already; revoke it first or choose another name."
        case .unknownName(let name): return "No key is named '\(name)'; `paylog keys list` shows the names."
        case .storage(let detail): return "The key database failed: \(detail)"
        }
    }
}
