import PaylogDomain
import PaylogStore

extension Payment {
    /// Applies a recorded event: the pure ``Payment/evolve(_:id:_:observedAt:)`` with what only the envelope
    /// knows (when it was observed, for the times of the first request, callback, offline and reconciliation).
    /// The status view and time travel both use this, so they always agree.
    public static func evolve(_ payment: inout Payment?, recorded: RecordedEvent, decoded: PaymentEvent) {
        Payment.evolve(
            &payment, id: recorded.streamID, decoded, observedAt: (recorded.observedAt ?? recorded.recordedAt).microseconds)
    }
}
