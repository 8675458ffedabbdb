import Foundation
import Hummingbird
import PaylogPresentation

/// An error answered to an HTTP client as `{"error":{"code":…,"message":…}}` with its status. Messages say
/// what was wrong with the request and what to do; they never carry stack traces, internal paths or store
/// details (those go to the server's log).
public struct ServiceError: Error, HTTPResponseError, Sendable, CustomStringConvertible {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// A stable machine-readable code, e.g. `invalid_field`.
    public var code: String
    /// A message for the person reading the response.
    public var message: String
    /// Extra response headers (e.g. `WWW-Authenticate`).
    public var headers: HTTPFields = [:]

    /// An error with this status, code and message.
    public init(_ status: HTTPResponse.Status, code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// The codes of the 4xx answers of a request that ran (not a route that does not exist, refused before any
    /// handler) which the same request, retried unchanged, may turn into a success: `contention` (other writers moved
    /// the payment on meanwhile), `idempotency_key_in_use` (the first request with the key is still running),
    /// `request_timeout` (the body came too slowly), `not_found` (the payment, or the key a callback is routed by, is
    /// not recorded yet: an app switch or a callback that arrived before its request, as hand-offs between apps do,
    /// is recorded by its retry once the request is).
    public static let transientCodes: Set<String> = ["contention", "idempotency_key_in_use", "request_timeout", "not_found"]

    /// Whether the answer is transient: a 5xx, or one of ``transientCodes``. It is never stored under an
    /// `Idempotency-Key`: the retry the answer asks for would be answered the stored error forever, and its
    /// observation never recorded.
    public var isTransient: Bool { status.code >= 500 || ServiceError.transientCodes.contains(code) }

    /// `code: message`.
    public var description: String { "\(status.code) \(code): \(message)" }

    /// The JSON error response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json"
        let body = (try? JSONText.data(["error": ["code": code, "message": message]])) ?? Data()
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension ServiceError {
    /// 400: a field is missing, has the wrong type or an invalid value.
    static func invalidField(_ field: String, _ reason: String) -> ServiceError {
        ServiceError(.badRequest, code: "invalid_field", "Field \"\(field)\" \(reason).")
    }

    /// 400: the body is not what the endpoint takes.
    static func invalidBody(_ reason: String) -> ServiceError {
        ServiceError(.badRequest, code: "invalid_body", reason)
    }

    /// 400: a query parameter is invalid.
    static func invalidParameter(_ name: String, _ reason: String) -> ServiceError {
        ServiceError(.badRequest, code: "invalid_parameter", "Query parameter \"\(name)\" \(reason).")
    }

    /// 401: no key, or not a valid one.
    static func unauthorized(_ reason: String) -> ServiceError {
        var error = ServiceError(.unauthorized, code: "unauthorized", reason)
        error.headers[.wwwAuthenticate] = "Bearer realm=\"paylog\""
        return error
    }

    /// 403: the key lacks the scope.
    static func forbidden(_ scope: APIKeyScope) -> ServiceError {
        ServiceError(
            .forbidden, code: "forbidden",
            "This API key lacks the '\(scope.rawValue)' scope; ask an operator for a key with it (`paylog keys add --scopes \(scope.rawValue)`).")
    }

    /// 404: no such payment (or route).
    static func notFound(_ what: String) -> ServiceError {
        ServiceError(.notFound, code: "not_found", what)
    }

    /// 413: the body is larger than the endpoint accepts.
    static func tooLarge(limit: Int) -> ServiceError {
        ServiceError(
            .contentTooLarge, code: "body_too_large",
            "The request body is larger than \(limit) bytes; split it (observations: several requests of fewer lines).")
    }
}
