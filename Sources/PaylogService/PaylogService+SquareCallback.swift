import Foundation
import Hummingbird
import PaylogDomain
import PaylogPresentation
import PaylogProviders
import PaylogWorkflow

extension PaylogService {
    /// `GET /v1/callbacks/square?data=…`: Square Register's web-app callback. Square cannot send an API key, so the
    /// request is trusted only through its `state`: the unguessable reference paylog minted for the request. An unknown
    /// state, or one a recorded callback already echoes (a replay), is answered 404 and nothing is appended; a payment
    /// retried with a new state waits for a callback echoing that one. The callback is recorded as observed:
    /// `<public_base_url><path>?<query>` byte for byte.
    func squareWebCallback(_ request: Request, _ context: PaylogRequestContext) async throws -> Response {
        let values = request.uri.queryParameters.getAll("data")
        guard !values.isEmpty else {
            throw ServiceError.invalidParameter("data", "is required: Square sends the transaction result as ?data={…}")
        }
        // The state is checked in the first; the recorded URL holds them all, and the provider's reading of a
        // repeated parameter need not take the same one.
        guard values.count == 1 else {
            throw ServiceError.invalidParameter("data", "is given \(values.count) times: Square sends one result")
        }
        // Without a configured base, the address the server listens on: the bound port, which `port: 0` leaves to
        // the system.
        let base = configuration.publicBaseURL ?? "http://\(configuration.host):\(listening.value ?? configuration.port)"
        let observedURL = base + request.uri.description
        // Read as the recorded callback will be read, its state included (its echoed reference): read otherwise (a
        // `state` key given twice, one reader taking the first and another the last), the check below would guard one
        // state while the log recorded another, and the guarded one stayed open to replays.
        guard let callback = try? Providers.parseCallback(observedURL, provider: .square) else {
            throw ServiceError.invalidParameter("data", "must be the JSON object Square sends")
        }
        guard let state = callback.reference, (1...128).contains(state.utf8.count) else {
            throw ServiceError.notFound("No payment waits for this callback.")
        }
        let unknown = ServiceError.notFound("No payment waits for this callback (unknown or already used state).")
        // The state routes to its payment; it is used once no callback echoing it is recorded, whatever callbacks
        // the payment's other states had (a retry after a declined attempt gets a new state, and waits for it).
        guard let paymentID = try readView({ try workflow.route("ref:\(state)") }),
            try readView({ try workflow.awaitsCallback(echoing: state, from: .square, payment: paymentID) })
        else { throw unknown }
        // The "no callback echoing this state yet" check again, inside the write: two callbacks for one state
        // arriving together both pass the read above, and only the first may be recorded.
        let start = DispatchTime.now().uptimeNanoseconds
        let observation = Observation.callback(payment: paymentID, at: .now(), url: observedURL, provider: .square)
        let recorded: RecordOutcome?
        do throws(WorkflowError) {
            recorded = try await workflow.record(observation, answering: state, from: .square, ofPayment: paymentID)
        } catch {
            throw failure(error)
        }
        guard let outcome = recorded else { throw unknown }
        metrics.append(endpoint: "square-callback", nanoseconds: DispatchTime.now().uptimeNanoseconds - start, events: outcome.eventsAppended)
        countFindings(outcome)
        return try Answer(.ok, ["payment": paymentID, "status": outcome.payment.status.rawValue]).response()
    }
}
