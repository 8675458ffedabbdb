import PaylogDomain
import PaylogStore

extension Payment {
    /// Applies a recorded event: the pure ``Payment/evolve(_:id:_:)`` plus what only the envelope knows (the
    /// time of the first request). The status view and time travel both use this, so they always agree.
    public static func evolve(_ payment: inout Payment?, recorded: RecordedEvent, decoded: PaymentEvent) {
        Payment.evolve(&payment, id: recorded.streamID, decoded)
        if payment!.firstRequestedAtMicroseconds == nil, case .requested = decoded {
            payment!.firstRequestedAtMicroseconds = (recorded.observedAt ?? recorded.recordedAt).microseconds
        }
    }
}
