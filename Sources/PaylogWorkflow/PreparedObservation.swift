import PaylogDomain

/// One ingested line made ready for the writer: the observation, and what can be worked out from it alone
/// before it reaches the write session — a request's launch URL parsed.
///
/// `paylog ingest` prepares a batch while the writer records the previous one, so this work runs on the
/// other core; what needs the store's state (routing, deciding) stays in the session. (Reading callbacks ahead
/// as the provider their URL names was tried too and measured no faster: the reading side then became the
/// slower one.)
struct PreparedObservation: Sendable {
    /// The line's number in the input, 1-based.
    let number: Int
    let observation: Observation
    /// A request's launch URL parsed, or why it cannot be; nil for other kinds.
    let launch: Result<LaunchRequest, WorkflowError>?

    init(number: Int, observation: Observation) {
        self.number = number
        self.observation = observation
        if case .request(_, _, let url, let appVersion) = observation {
            launch = Result { () throws(WorkflowError) in try PaymentWorkflow.parseLaunch(url, appVersion: appVersion) }
        } else {
            launch = nil
        }
    }
}
