/// What an API key may do. `admin` implies every other scope.
public enum APIKeyScope: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Record observations: payments, app switches, callbacks, JSON Lines batches, reconciliations.
    case ingest
    /// Read payments, listings, replays, analytics and findings; audit timelines with personal data hidden.
    case read
    /// Read audit timelines and replays with personal data (SumUp receipt e-mail and phone) shown.
    case audit
    /// Everything.
    case admin

    /// Orders scopes as declared, for stable listings.
    public static func < (lhs: APIKeyScope, rhs: APIKeyScope) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Parses a comma-separated list such as `ingest,read`.
    /// - Throws: ``APIKeyError/unknownScope(_:)`` naming the first word that is not a scope.
    public static func parseList(_ text: String) throws(APIKeyError) -> [APIKeyScope] {
        var scopes: [APIKeyScope] = []
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !word.isEmpty {
            guard let scope = APIKeyScope(rawValue: word.lowercased()) else { throw .unknownScope(word) }
            if !scopes.contains(scope) { scopes.append(scope) }
        }
        guard !scopes.isEmpty else { throw .noScopes }
        return scopes.sorted()
    }
}
