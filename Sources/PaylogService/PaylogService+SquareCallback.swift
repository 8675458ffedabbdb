import Foundation
import Hummingbird
import PaylogDomain
import PaylogPresentation
import PaylogWorkflow

extension PaylogService {
    /// `GET /v1/callbacks/square?data=…`: Square Register's web-app callback. Square cannot send an API key, so
    /// the request is trusted only through its `state`: the unguessable reference paylog minted for the request.
    /// An unknown state, or one whose payment already has a callback (a replay), is answered 404 and nothing
    /// is appended. The callback is recorded as observed: `<public_base_url><path>?<query>` byte for byte.
    func squareWebCallback(_ request: Request, _ context: PaylogRequestContext) async throws -> Response {
        guard let data = request.uri.queryParameters["data"].map(String.init) else {
            throw ServiceError.invalidParameter("data", "is required: Square sends the transaction result as ?data={…}")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else {
            throw ServiceError.invalidParameter("data", "must be the JSON object Square sends")
        }
        guard let state = object["state"] as? String, (1...128).contains(state.utf8.count) else {
            throw ServiceError.notFound("No payment waits for this callback.")
        }
        let unknown = ServiceError.notFound("No payment waits for this callback (unknown or already used state).")
        guard let paymentID = try readView({ try workflow.route("ref:\(state)") }),
            let payment = try readView({ try PaymentsProjection.payment(paymentID, in: store) }),
            payment.provider == .square, payment.callbackFingerprints.isEmpty
        else { throw unknown }
        // Without a configured base, the address the server listens on: the bound port, which `port: 0` leaves to
        // the system.
        let base = configuration.publicBaseURL ?? "http://\(configuration.host):\(listening.value ?? configuration.port)"
        let observedURL = base + request.uri.description
        let outcome = try await recordObservation(
            .callback(payment: paymentID, at: .now(), url: observedURL, provider: .square), endpoint: "square-callback")
        return try Answer(.ok, ["payment": paymentID, "status": outcome.payment.status.rawValue]).response()
    }
}
