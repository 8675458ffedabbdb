import Foundation
import Hummingbird
import PaylogPresentation

extension PaylogService {
    /// Every route, with the middleware in order: metrics (outermost, sees the final status), error shaping,
    /// authentication.
    public func router() -> Router<PaylogRequestContext> {
        let router = Router(context: PaylogRequestContext.self)
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: AuthenticationMiddleware(keys: keys))

        router.get("/health") { _, _ in try Answer(.ok, ["status": "ok"]).response() }
        router.get("/ready") { _, _ in try self.ready().response() }
        router.get("/metrics") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: self.metrics.exposition(store: self.store))))
        }

        let v1 = router.group("v1")
        v1.post("payments") { request, context in try await self.createPayment(request, context) }
        v1.post("payments/:id/app-switch") { request, context in try await self.appSwitch(request, context) }
        v1.post("payments/:id/callbacks") { request, context in try await self.callback(request, context) }
        v1.post("observations") { request, context in try await self.observations(request, context, defaultKind: nil) }
        v1.post("reconciliations") { request, context in try await self.observations(request, context, defaultKind: "reconcile") }
        v1.get("callbacks/square") { request, context in try await self.squareWebCallback(request, context) }
        v1.get("payments") { request, context in try self.listPayments(request, context).response() }
        v1.get("payments/:id") { request, context in try self.payment(request, context).response() }
        v1.get("payments/:id/audit") { request, context in try self.audit(request, context).response() }
        v1.get("payments/:id/replay") { request, context in try self.replay(request, context).response() }
        v1.get("analytics") { request, context in try self.analytics(request, context).response() }
        v1.get("findings") { request, context in try self.findings(request, context).response() }
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
