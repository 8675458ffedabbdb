/// A key just added: the only time its full text is known. Print it once and forget it.
public struct IssuedAPIKey: Sendable, Hashable, Codable {
    /// The key's name.
    public var name: String
    /// The full key to send as `Authorization: Bearer …`.
    public var key: String
    /// Its scopes.
    public var scopes: [APIKeyScope]
}
