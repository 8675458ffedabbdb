import Dispatch
import Hummingbird

/// Counts every request by route template (`/v1/payments/{id}`, not the id), method and final status, and
/// times it. Sits outside ``ErrorMiddleware`` so errors are counted with the status the client saw.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = PaylogRequestContext
    let metrics: ServiceMetrics
    /// The routes, to name the template of a path answered before any route ran (a 405).
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        let response = try await next(request, context)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // A path served only with other methods gets its 405 from the error middleware, before a route ran, and
        // the router names it "NotFound": count it under its route's template instead.
        let matched = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 }
        metrics.request(
            route: matched ?? routes.template(for: request.uri.path) ?? "unmatched", method: request.method.rawValue,
            status: response.status.code, seconds: seconds)
        return response
    }
}
