import Dispatch
import Hummingbird

/// Counts every request by route template (`/v1/payments/{id}`, not the id), method and final status, and
/// times it. Sits outside ``ErrorMiddleware`` so errors are counted with the status the client saw.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = PaylogRequestContext
    let metrics: ServiceMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        let response = try await next(request, context)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        metrics.request(
            route: context.endpointPath ?? "unmatched", method: request.method.rawValue, status: response.status.code,
            seconds: seconds)
        return response
    }
}
