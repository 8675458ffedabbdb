import PaylogDomain

/// One ingested line made ready for the writer: the observation, and what can be worked out from it alone
/// before it reaches the write session — a request's launch URL parsed, a callback that names no provider
/// read as the provider its URL names, and the observation's digest and first event id when the line (or the
/// callback's `paylog_payment` marker) names its payment.
///
/// `paylog ingest` prepares a batch while the writer records the previous one, so this work runs on the
/// other core; what needs the store's state (routing, deciding) stays in the session. Reading callbacks ahead
/// was first tried when this side still trimmed every line through Foundation, and measured no faster: this side
/// then became the slower one. With that gone, the writer thread was the busier side again (88 % on the CPU at
/// 100 k events, 16 % of it reading Square's `data` JSON of callbacks).
///
/// A class: the writer thread reads each line where the batch holds it, and a struct this size was copied whole
/// (a retain and a release of each of its fields) wherever Swift could not prove a borrow safe — 4.7 % of the
/// writer thread's samples at 100 k events (`perf`, Docs/performance.md). Every property is a constant, so it is
/// `Sendable` as the struct was.
final class PreparedObservation: Sendable {
    /// The line's number in the input, 1-based.
    let number: Int
    let observation: Observation
    /// A request's launch URL parsed, or why it cannot be; nil for other kinds.
    let launch: Result<LaunchRequest, WorkflowError>?
    /// What was read ahead of a callback naming no provider (``CallbackAhead``); nil for other kinds and for
    /// callbacks naming their provider. The session uses each part only where it would have worked it out itself
    /// (``PaymentWorkflow/routeCallback(_:payment:provider:reading:ahead:)``).
    let callbackAhead: CallbackAhead?
    /// The observation's identity, when the line alone names its payment: two SHA-256 digests per line that the
    /// writer thread no longer computes (the session checks it was taken for the payment the line is routed to).
    let identity: ObservationIdentity?

    init(number: Int, observation: Observation) {
        self.number = number
        self.observation = observation
        if case .request(_, _, let url, let appVersion) = observation {
            launch = Result { () throws(WorkflowError) in try PaymentWorkflow.parseLaunch(url, appVersion: appVersion) }
        } else {
            launch = nil
        }
        if case .callback(_, _, let url, nil) = observation {
            callbackAhead = CallbackAhead(url: url)
        } else {
            callbackAhead = nil
        }
        identity = ObservationIdentity(observation, callbackAhead: callbackAhead)
    }
}
