import PaylogDomain
import PaylogStore

extension Payment {
    /// Applies a recorded event: the pure ``Payment/evolve(_:id:_:)`` plus what only the envelope knows (when
    /// it was first requested, called back, taken offline, reconciled). The status view and time travel both use this, so they always agree.
    public static func evolve(_ payment: inout Payment?, recorded: RecordedEvent, decoded: PaymentEvent) {
        Payment.evolve(&payment, id: recorded.streamID, decoded)
        let at = (recorded.observedAt ?? recorded.recordedAt).microseconds
        switch decoded {
        case .requested: if payment!.firstRequestedAtMicroseconds == nil { payment!.firstRequestedAtMicroseconds = at }
        case .callbackReceived: if payment!.firstCallbackAtMicroseconds == nil { payment!.firstCallbackAtMicroseconds = at }
        case .offline: if payment!.offlineAtMicroseconds == nil { payment!.offlineAtMicroseconds = at }
        case .reconciled: if payment!.reconciledAtMicroseconds == nil { payment!.reconciledAtMicroseconds = at }
        case .appSwitched, .failed: break
        }
    }
}
