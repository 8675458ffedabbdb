import PaylogDomain
import PaylogStore

/// Why an observation could not be recorded. Nothing was recorded.
public enum WorkflowError: Error, Sendable, CustomStringConvertible {
    /// The state machine refused the command.
    case rejected(PaymentRejection)
    /// No payment matches the callback or report line.
    case unroutable(String)
    /// The log failed underneath.
    case store(EventStoreError)
    /// The URL or line cannot be understood at all (not a URL, unknown scheme, undecodable data).
    case unreadable(String)
    /// The payment kept changing under concurrent writers.
    case tooMuchContention(payment: String)
    /// paylog refused to build a launch URL that would break the provider's contract; nothing was recorded.
    case refusedLaunch(String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .rejected(let rejection): return rejection.description
        case .unroutable(let detail):
            return "No recorded payment matches \(detail). Check that the payment's request (for a reference) or "
                + "callback (for a transaction or client transaction id) was recorded first; a callback can also name "
                + "its payment (\"payment\", or the paylog_payment marker). A report line is matched by its keys only: "
                + "record the callback that carries its id, then reconcile again."
        case .unreadable(let detail): return detail
        case .store(let error): return error.description
        case .refusedLaunch(let detail): return "Refusing to build the launch URL: \(detail)"
        case .tooMuchContention(let id): return "Payment \(id) changed under 20 concurrent attempts; retry the observation."
        }
    }
}
