import PaylogDomain
import PaylogStore

/// When a payment's failures were observed, as a walk through its stream meets them: what the note on a late
/// callback compares the callback's own time with. The audit keeps one (`paylog replay --payment` shows the audit's
/// notes).
struct FailureTimes: Sendable {
    /// When the latest failure was observed: a callback recorded after it may have been observed before it.
    private(set) var latest: Timestamp?
    /// When each attempt (by its request's reference) failed while in progress: a success answering it after a retry
    /// replaced it is late.
    private var byAttempt: [String: Timestamp] = [:]

    /// No failure yet.
    init() {}

    /// Notes a `Failed` event observed at `observedAt`; `state`: the payment after it (its latest reference is the
    /// attempt that failed).
    mutating func noteFailure(observedAt: Timestamp?, state: Payment) {
        latest = observedAt
        if let attempt = state.references.last, let observedAt { byAttempt[attempt] = observedAt }
    }

    /// The note on `callback`, recorded late (``CallbackReceived/isLate``) at `observedAt`; `before`: the payment
    /// before it. A callback answering an attempt that had failed, while the payment itself had not, is late because
    /// of that attempt's failure.
    func lateNote(for callback: CallbackReceived, observedAt: Timestamp?, before: Payment?) -> String {
        let attemptFailure = before?.status == .failed || !callback.answersEarlierAttempt
            ? nil : callback.outcome.reference.flatMap { byAttempt[$0] }
        return PaymentAudit.lateNote(
            observedAt: observedAt, failureObservedAt: attemptFailure ?? latest, ofFailedAttempt: attemptFailure != nil)
    }
}
