import PaylogDomain
import PaylogStore

/// What recording one observation comes to once it is routed and decided: nothing to write (already recorded,
/// or no event), or events to append at an expected version. Shared by the store path and the write-session path.
enum RecordPlan {
    /// Nothing to append; the outcome is final.
    case done(RecordOutcome)
    /// Append `newEvents` (encoding `events`) expecting `expected`; `current` is the payment before them.
    case append(newEvents: [NewEvent], expected: ExpectedVersion, events: [PaymentEvent], current: Payment?)
}
