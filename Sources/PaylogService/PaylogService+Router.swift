import Foundation
import Hummingbird
import PaylogPresentation

extension PaylogService {
    /// Every route, with the middleware in order: metrics (outermost, sees the final status), error shaping,
    /// authentication. A path served only with other methods is answered 405 with `Allow`.
    public func router() -> Router<PaylogRequestContext> {
        typealias Handler = @Sendable (Request, PaylogRequestContext) async throws -> Response
        let routes: [(method: HTTPRequest.Method, path: String, handler: Handler)] = [
            (.get, "/health", { _, _ in try Answer(.ok, ["status": "ok"]).response() }),
            (.get, "/ready", { _, _ in try self.ready().response() }),
            (.get, "/metrics", { _, _ in
                var headers = HTTPFields()
                headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
                return Response(
                    status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: self.metrics.exposition(store: self.store))))
            }),
            (.post, "/v1/payments", { request, context in try await self.createPayment(request, context) }),
            (.post, "/v1/payments/:id/app-switch", { request, context in try await self.appSwitch(request, context) }),
            (.post, "/v1/payments/:id/callbacks", { request, context in try await self.callback(request, context) }),
            (.post, "/v1/observations", { request, context in try await self.observations(request, context, defaultKind: nil) }),
            (.post, "/v1/reconciliations", { request, context in
                try await self.observations(request, context, defaultKind: "reconcile")
            }),
            (.get, "/v1/callbacks/square", { request, context in try await self.squareWebCallback(request, context) }),
            (.get, "/v1/payments", { request, context in try self.listPayments(request, context).response() }),
            (.get, "/v1/payments/:id", { request, context in try self.payment(request, context).response() }),
            (.get, "/v1/payments/:id/audit", { request, context in try self.audit(request, context).response() }),
            (.get, "/v1/payments/:id/replay", { request, context in try self.replay(request, context).response() }),
            (.get, "/v1/analytics", { request, context in try self.analytics(request, context).response() }),
            (.get, "/v1/findings", { request, context in try self.findings(request, context).response() }),
        ]
        // The table lets the error middleware answer 405 (with `Allow`) for a known path asked with a method it is
        // not served with, and 404 only for paths no route serves.
        // Every GET that only reads is served for HEAD too (RFC 9110 §9.3.2: health checks and proxies send HEAD),
        // without a body. Not Square's web callback: its GET records the callback, and a HEAD (a link previewer,
        // a proxy) must not, or Square's own GET then finds the state used.
        let headless: Set<String> = ["/v1/callbacks/square"]
        var table = RouteTable()
        for route in routes {
            table.add(route.method, route.path)
            if route.method == .get && !headless.contains(route.path) { table.add(.head, route.path) }
        }
        let router = Router(context: PaylogRequestContext.self)
        // Middleware before the routes (a route is built with the middleware added before it).
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics, routes: table))
        router.add(middleware: ErrorMiddleware(routes: table))
        router.add(middleware: AuthenticationMiddleware(keys: keys))
        for route in routes {
            router.on(RouterPath(route.path), method: route.method, use: route.handler)
            if route.method == .get && !headless.contains(route.path) {
                let get = route.handler
                router.on(RouterPath(route.path), method: .head) { request, context in
                    let response = try await get(request, context)
                    return Response(status: response.status, headers: response.headers, body: .init())
                }
            }
        }
        return router
    }

    /// 200 when the store answers reads, 503 otherwise.
    func ready() throws -> Answer {
        do {
            let head = try store.lastPosition()
            let lag = try store.projectionLag()
            return try Answer(.ok, ["status": "ready", "events": head, "projection_lag": lag])
        } catch {
            logger.warning("not ready", metadata: ["error": "\(error)"])
            return try Answer(.serviceUnavailable, ["status": "unavailable", "reason": "the event log cannot be read"])
        }
    }
}
