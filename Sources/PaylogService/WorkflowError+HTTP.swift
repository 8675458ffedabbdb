import Hummingbird
import PaylogDomain
import PaylogWorkflow

extension WorkflowError {
    /// The HTTP answer for a refused or failed observation. Store failures are not described to the client
    /// (they can hold paths); the caller logs them.
    var serviceError: ServiceError {
        switch self {
        case .rejected(.unknownPayment(let id)):
            return .notFound("No payment \(id) has been recorded; record its request first (POST /v1/payments).")
        case .rejected(let rejection):
            return ServiceError(.conflict, code: "rejected", rejection.description)
        case .unroutable:
            return .notFound(description)
        case .unreadable(let detail):
            return ServiceError(.badRequest, code: "unreadable_evidence", detail)
        case .refusedLaunch:
            return ServiceError(.unprocessableContent, code: "contract_violation", description)
        case .tooMuchContention:
            return ServiceError(.conflict, code: "contention", description)
        case .store:
            return ServiceError(
                .serviceUnavailable, code: "storage_unavailable",
                "The event log could not be written; nothing from this request was recorded. Retry later with the same Idempotency-Key; the operator can see the cause in the server log.")
        }
    }
}
