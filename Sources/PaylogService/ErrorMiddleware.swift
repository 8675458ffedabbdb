import Hummingbird
import Logging

/// Turns every error into paylog's JSON error shape. Errors that are not the client's (anything but a ``ServiceError``
/// or Hummingbird's own 404, 405 and 413) are logged in full and answered with a bare 500 that carries a request id to
/// quote, never a stack trace or an internal path. (Hummingbird throws no other 4xx on the paths paylog uses; one would
/// be a fault of paylog's, and every code sent is one Docs/openapi.yaml lists.) A path that no route serves is a 404; a
/// path served only with other methods is a 405 naming them in `Allow` (``RouteTable``); a path with an empty segment
/// inside it (`//`) is a 404 before any route sees it.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = PaylogRequestContext

    /// The service's routes, to tell 404 from 405.
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The router drops empty segments, so `/v1/payments//audit` would be served as payment "audit". An empty
        // segment names nothing (a payment id is never empty): 404, as for an unknown path. (A trailing slash is
        // tolerated, as the router does: `/v1/findings/` is `/v1/findings`.)
        let path = request.uri.path
        if path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().dropLast().contains(where: \.isEmpty) {
            return try ServiceError(
                .notFound, code: "not_found",
                "No such endpoint: \(request.method) \(path): a path segment is empty (a payment id never is). See Docs/http-api.md."
            ).response(from: request, context: context)
        }
        do {
            return try await next(request, context)
        } catch let error as ServiceError {
            return try error.response(from: request, context: context)
        } catch let error as HTTPError where [404, 405, 413].contains(error.status.code) {
            let allowed = routes.methods(for: request.uri.path)
            if error.status == .notFound, !allowed.isEmpty, !allowed.contains(request.method) {
                let names = allowed.map(\.rawValue).joined(separator: ", ")
                var refusal = ServiceError(
                    .methodNotAllowed, code: "method_not_allowed",
                    "\(request.method) is not served on \(request.uri.path); use \(names). See Docs/http-api.md.")
                refusal.headers[.allow] = names
                return try refusal.response(from: request, context: context)
            }
            let code = switch error.status.code {
            case 404: "not_found"
            case 405: "method_not_allowed"
            default: "body_too_large"
            }
            let message = error.status.code == 404
                ? "No such endpoint: \(request.method) \(request.uri.path). See Docs/http-api.md."
                : (error.body ?? error.status.reasonPhrase)
            return try ServiceError(error.status, code: code, message).response(from: request, context: context)
        } catch {
            let id = context.id
            context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))", "request_id": "\(id)"])
            return try ServiceError(
                .internalServerError, code: "internal",
                "The server failed to handle this request (request id \(id)); nothing partial was recorded. Retry with the same Idempotency-Key; if it persists, send the request id to the operator."
            ).response(from: request, context: context)
        }
    }
}
