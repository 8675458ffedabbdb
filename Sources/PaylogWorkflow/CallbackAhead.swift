import PaylogDomain
import PaylogProviders

/// What a batched ingest reads of a callback naming no provider before the write session, on the parsing side
/// (``PreparedObservation``): the work ``PaymentWorkflow/routeCallback(_:payment:provider:reading:ahead:)`` would
/// otherwise do on the writer thread.
///
/// Only the routing itself needs the store (the provider of the payment a `paylog_payment` marker names). Each
/// part is used only where the session would have computed the same thing itself.
struct CallbackAhead: Sendable {
    /// The callback read as the provider its URL names (nil inside: it names none), or why it cannot be read.
    let detected: Result<CallbackOutcome?, WorkflowError>
    /// The URL's `paylog_payment` query item, when it names no provider (nil otherwise, or when it has none).
    let marker: String?
    /// The URL read as iZettle's, when it names no provider but carries a marker: a URL without Square's `data` or
    /// SumUp's `smp-` parameters is, in practice, an iZettle callback. Used only when the marked payment's provider
    /// is iZettle. (Such a reading cannot fail: the URL was parsed for the detection.)
    let asIZettle: CallbackOutcome?

    /// Reads `url` ahead: the URL parsed once for the detection, the iZettle reading and the marker
    /// (``Providers/readCallbackAhead(_:)``), which give what ``PaymentWorkflow/detectCallback(_:)``,
    /// ``PaymentWorkflow/parseCallback(_:provider:)`` and ``PaymentWorkflow/queryItem(_:in:)`` give.
    init(url: String) {
        let read: Result<(named: CallbackOutcome?, asIZettle: CallbackOutcome?, marker: String?), WorkflowError>
        do { read = .success(try Providers.readCallbackAhead(url)) } catch { read = .failure(.unreadable(error.description)) }
        detected = read.map(\.named)
        if case .success(let reading) = read, reading.named == nil, let iZettle = reading.asIZettle,
            let marked = reading.marker
        {
            marker = marked
            asIZettle = iZettle
        } else {
            marker = nil
            asIZettle = nil
        }
    }
}
