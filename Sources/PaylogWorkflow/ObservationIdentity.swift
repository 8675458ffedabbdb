import Foundation
import PaylogDomain
import PaylogStore

/// An observation's digest and first event id, worked out before the write session when the line alone names
/// its payment (``PreparedObservation``).
///
/// Both are pure functions of the payment, the kind of command, the time and the evidence
/// (``PaymentWorkflow/identity(_:kind:observedAt:evidence:)``), so the parsing side computes them while the writer
/// records the previous batch; the session uses them only when the line is routed to the same payment.
struct ObservationIdentity: Sendable {
    /// The payment the digest was taken for.
    let paymentID: String
    /// ``PaymentWorkflow/identity(_:kind:observedAt:evidence:)`` of the observation.
    let digest: [UInt8]
    /// ``PaymentWorkflow/eventID(_:index:)`` of the first event it produces.
    let firstEventID: UUID

    /// The identity of `observation` when the line names its payment, or when the callback read ahead routes it by
    /// its `paylog_payment` marker (as the provider its URL names, or, naming none, as iZettle: the session then
    /// uses it only if the marked payment is iZettle's and so routes it there); nil when only the store can tell (a
    /// callback routed by reference, a report line).
    init?(_ observation: Observation, callbackAhead: CallbackAhead?) {
        let payment: String
        let kind: String
        let at: Timestamp
        let evidence: String
        switch observation {
        case .request(let id, let time, let url, _):
            (payment, kind, at, evidence) = (id, "request", time, url)
        case .appSwitch(let id, let time, let note):
            (payment, kind, at, evidence) = (id, "app_switch", time, note)
        case .fail(let id, let time, let reason):
            (payment, kind, at, evidence) = (id, "fail", time, reason)
        case .callback(let id?, let time, let url, _):
            (payment, kind, at, evidence) = (id, "callback", time, url)
        case .callback(nil, let time, let url, nil):
            // Routed by the marker the URL carries, as the session would (`routeCallback`).
            let outcome: CallbackOutcome
            switch (callbackAhead?.detected, callbackAhead?.asIZettle) {
            case (.success(let detected?)?, _): outcome = detected
            case (.success(nil)?, let read?): outcome = read
            default: return nil
            }
            guard case .paymentID(let id)? = outcome.routingHint else { return nil }
            (payment, kind, at, evidence) = (id.rawValue, "callback", time, url)
        case .callback, .reconcile:
            return nil
        }
        paymentID = payment
        digest = PaymentWorkflow.identity(payment, kind: kind, observedAt: at, evidence: evidence)
        firstEventID = PaymentWorkflow.eventID(digest, index: 0)
    }
}
