import Hummingbird
import Logging

/// The per-request context of the paylog service: Hummingbird's core storage plus the caller's API key.
public struct PaylogRequestContext: RequestContext {
    /// Hummingbird's per-request storage (logger, endpoint path, parameters).
    public var coreContext: CoreRequestContextStorage
    /// The API key that authenticated the request, if any.
    public var apiKey: APIKey?

    /// A context for a new request.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        apiKey = nil
    }

    /// Succeeds when the caller presented a key with `scope`.
    /// - Throws: 401 without a key, 403 when the key lacks the scope.
    public func require(_ scope: APIKeyScope) throws(ServiceError) {
        guard let apiKey else {
            throw .unauthorized("This endpoint needs an API key: send `Authorization: Bearer <key>` (`paylog keys add` makes one).")
        }
        guard apiKey.allows(scope) else { throw .forbidden(scope) }
    }
}
