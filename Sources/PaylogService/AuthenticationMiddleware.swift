import Foundation
import Hummingbird

/// Reads `Authorization: Bearer <key>` and puts the key on the context. A request without the header passes
/// on unauthenticated (each route decides whether it needs a key); a malformed, unknown or revoked key is
/// answered 401 at once.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = PaylogRequestContext
    let keys: APIKeyStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else { return try await next(request, context) }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw ServiceError.unauthorized("The Authorization header must read `Bearer <key>`.")
        }
        let presented: APIKey?
        do { presented = try keys.authenticate(String(parts[1]).trimmingCharacters(in: .whitespaces)) } catch {
            // The key database failed, not the key: the client must retry, not discard a key that may be good.
            context.logger.error("API key lookup failed", metadata: ["error": "\(error)"])
            throw ServiceError(
                .serviceUnavailable, code: "storage_unavailable",
                "The API keys could not be read; nothing was recorded. Retry later; the operator can see the cause in the server log.")
        }
        guard let key = presented else {
            throw ServiceError.unauthorized("The API key is not valid (unknown, revoked or mistyped).")
        }
        var context = context
        context.apiKey = key
        return try await next(request, context)
    }
}
