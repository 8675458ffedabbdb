import PaylogDomain
import PaylogStore

extension PaymentWorkflow {
    /// Appends `newEvents` (encoding the decided `events`) to payment `paymentID` inside `session`, handing the
    /// status view the decided events and `current`, the payment as the view holds it (``DecidedAppend``). Returns
    /// the append's result and the ``DecidedAppend``, whose ``DecidedAppend/payment`` is then the payment as the
    /// view holds it after the append when the view took every event from it.
    func append(
        _ newEvents: [NewEvent], decided events: [PaymentEvent], to paymentID: String, expecting expected: ExpectedVersion,
        current: Payment?, in session: WriteSession
    ) throws(WorkflowError) -> (result: AppendResult, decided: DecidedAppend) {
        let decided = DecidedAppend(events: events, current: current)
        do {
            return (try session.append(newEvents, to: paymentID, expecting: expected, decided: decided), decided)
        } catch {
            throw .store(error)
        }
    }
}
