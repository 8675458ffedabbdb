import PaylogDomain
import PaylogStore

/// Replays one payment's stream from the log with the current code: the state after every event, up to a
/// version or a time. This is the time-travel view support engineers use on a disputed payment; it reads the
/// log itself, never a view, so it cannot drift.
public enum PaymentHistory {
    /// The payment's steps up to `cutoff`. Throws for an unknown payment or an event the code cannot read.
    public static func steps(of paymentID: String, in store: EventStore, upTo cutoff: HistoryCutoff = .all) throws -> [HistoryStep] {
        let events = try store.readStream(paymentID)
        guard !events.isEmpty else { throw WorkflowError.rejected(.unknownPayment(paymentID)) }
        var steps: [HistoryStep] = []
        var payment: Payment?
        for event in events {
            switch cutoff {
            case .all: break
            case .version(let version): if event.version > version { return steps }
            case .time(let time): if (event.observedAt ?? event.recordedAt) > time { return steps }
            }
            let decoded = try EventCodec.decode(event)
            Payment.evolve(&payment, recorded: event, decoded: decoded)
            steps.append(HistoryStep(event: event, decoded: decoded, state: payment!))
        }
        return steps
    }
}
