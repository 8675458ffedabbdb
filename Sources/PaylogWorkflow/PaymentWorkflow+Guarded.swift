import PaylogDomain
import PaylogStore

extension PaymentWorkflow {
    /// Records `observation` only while payment `paymentID`, as the log stands inside the write, satisfies
    /// `condition`; returns nil, appending nothing, when it does not (or the payment is unknown).
    ///
    /// The check and the record happen in one write session, so no concurrent append can come between them: a
    /// check read from the views before the write (check, then act) let twenty identical-state callbacks arriving
    /// together all pass it, and ten were recorded where only the first could be.
    public func record(
        _ observation: Observation, ifPayment paymentID: String, satisfies condition: @escaping @Sendable (Payment) -> Bool
    ) async throws(WorkflowError) -> RecordOutcome? {
        try await record(observation, ifPayment: paymentID, satisfiesInLog: { payment, _ in condition(payment) })
    }

    /// Records the callback `observation` on payment `paymentID` only while, as the log stands inside the write, the
    /// payment waits for a callback from `provider` echoing `reference`: it was requested with that reference, and no
    /// recorded callback echoes it yet. Returns nil, appending nothing, when it does not. Of callbacks echoing one
    /// reference that arrive together, exactly one is recorded; a callback echoing another reference the payment was
    /// requested with (a retry's) is not held back by them.
    public func record(
        _ observation: Observation, answering reference: String, from provider: Provider, ofPayment paymentID: String
    ) async throws(WorkflowError) -> RecordOutcome? {
        try await record(observation, ifPayment: paymentID, satisfiesInLog: { _, reading in
            try reading.awaitsCallback(echoing: reference, from: provider, payment: paymentID)
        })
    }

    /// Whether payment `paymentID`, as the log stands now, waits for a callback from `provider` echoing `reference`
    /// (see ``record(_:answering:from:ofPayment:)``, which checks it again inside the write that records).
    public func awaitsCallback(
        echoing reference: String, from provider: Provider, payment paymentID: String
    ) throws(WorkflowError) -> Bool {
        do {
            return try StoreReading(store: store).awaitsCallback(echoing: reference, from: provider, payment: paymentID)
        } catch let error as EventStoreError {
            throw .store(error)
        } catch {
            throw .unreadable("Payment \(paymentID) cannot be read from the status view or the log: \(error)")
        }
    }

    /// Records `observation` only while `condition` holds of payment `paymentID` and the log, both read inside the
    /// write session that records it; nil, appending nothing, when it does not (or the payment is unknown).
    func record(
        _ observation: Observation, ifPayment paymentID: String,
        satisfiesInLog condition: @escaping @Sendable (Payment, SessionReading) throws -> Bool
    ) async throws(WorkflowError) -> RecordOutcome? {
        let result: Result<RecordOutcome?, WorkflowError>
        do {
            result = try await store.withWriteSession { session in
                Result { () throws(WorkflowError) -> RecordOutcome? in
                    let reading = SessionReading(session: session)
                    do {
                        guard let current = try reading.payment(paymentID), try condition(current, reading) else { return nil }
                    } catch let error as EventStoreError {
                        throw .store(error)
                    } catch {
                        throw .unreadable("Payment \(paymentID) cannot be read from the status view or the log: \(error)")
                    }
                    return try self.record(observation, in: session)
                }
            }
        } catch {
            throw .store(error)
        }
        return try result.get()
    }
}
