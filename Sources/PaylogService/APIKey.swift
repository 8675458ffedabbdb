import PaylogStore

/// A stored API key: its name, scopes and the SHA-256 of its secret. The secret itself is never stored.
public struct APIKey: Sendable, Hashable, Codable {
    /// The operator's name for the key (unique).
    public var name: String
    /// The public part of the key (`pk_<id>_…`), used to find the record without comparing secrets.
    public var id: String
    /// SHA-256 of the secret part, lowercase hex.
    public var secretHash: String
    /// What the key may do.
    public var scopes: [APIKeyScope]
    /// When it was added (RFC 3339).
    public var createdAt: String

    /// Whether the key grants `scope` (`admin` grants all).
    public func allows(_ scope: APIKeyScope) -> Bool {
        scopes.contains(scope) || scopes.contains(.admin)
    }

    enum CodingKeys: String, CodingKey {
        case name, id, scopes
        case secretHash = "secret_sha256"
        case createdAt = "created_at"
    }
}
