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
        let result: Result<RecordOutcome?, WorkflowError>
        do {
            result = try await store.withWriteSession { session in
                Result { () throws(WorkflowError) -> RecordOutcome? in
                    let current: Payment?
                    do {
                        current = try SessionReading(session: session).payment(paymentID)
                    } catch let error as EventStoreError {
                        throw .store(error)
                    } catch {
                        throw .unreadable("The status view's row of payment \(paymentID) cannot be read: \(error)")
                    }
                    guard let current, condition(current) else { return nil }
                    return try self.record(observation, in: session)
                }
            }
        } catch {
            throw .store(error)
        }
        return try result.get()
    }
}
