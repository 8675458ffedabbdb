extension Payment {
    /// The state after `events`, applied in order to a payment with id `id`; nil when there are none.
    public static func replay(id: String, _ events: some Sequence<PaymentEvent>) -> Payment? {
        var payment: Payment?
        for event in events { Payment.evolve(&payment, id: id, event) }
        return payment
    }

    /// Applies one event to an optional payment (nil before its first event). With `observedAt` (µs), also
    /// records it as the time of the first event of its kind (first request, callback, offline, reconciliation)
    /// where none is recorded yet.
    public static func evolve(_ payment: inout Payment?, id: String, _ event: PaymentEvent, observedAt: Int64? = nil) {
        // `case .none`, not `== nil`: Payment is Equatable, and `== nil` compared whole copies of it.
        if case .none = payment {
            guard case .requested(let requested) = event else {
                // A stream must start with Requested; anything else still counts, on a placeholder.
                var placeholder = Payment(id: id, provider: .square)
                placeholder.apply(event, observedAt: observedAt)
                payment = placeholder
                return
            }
            payment = Payment(id: id, provider: requested.provider)
        }
        payment!.apply(event, observedAt: observedAt)
    }

    /// ``apply(_:)``, then the first-event times (see ``evolve(_:id:_:observedAt:)``).
    mutating func apply(_ event: PaymentEvent, observedAt: Int64?) {
        apply(event)
        guard let at = observedAt else { return }
        switch event {
        case .requested: if firstRequestedAtMicroseconds == nil { firstRequestedAtMicroseconds = at }
        case .callbackReceived: if firstCallbackAtMicroseconds == nil { firstCallbackAtMicroseconds = at }
        case .offline: if offlineAtMicroseconds == nil { offlineAtMicroseconds = at }
        case .reconciled: if reconciledAtMicroseconds == nil { reconciledAtMicroseconds = at }
        case .appSwitched, .failed: break
        }
    }

    /// Applies one event. Pure: the same events always give the same state.
    public mutating func apply(_ event: PaymentEvent) {
        version += 1
        switch event {
        case .requested(let requested):
            if hasSucceeded {
                hadRequestAfterSuccess = true
            } else {
                status = .requested
                provider = requested.provider
                amount = requested.amount
                apiVersion = requested.apiVersion
                appVersion = requested.appVersion
            }
            if let reference = requested.reference, !references.contains(reference) { references.append(reference) }
        case .appSwitched:
            sawAppSwitch = true
            if status == .requested { status = .switched }
        case .callbackReceived(let callback):
            callbackFingerprints.append(CallbackFingerprint(rawURL: callback.callbackURL))
            sawCallback = true
            if callback.isLate { hadLateCallback = true }
            if callback.contradictsEarlier { hadContradictingCallbacks = true }
            let outcome = callback.outcome
            if let code = outcome.errorCode, outcome.status != .success { errorCode = code }
            switch outcome.status {
            case .success:
                sawSuccess = true
                lastCallbackSucceeded = true
                if let id = outcome.transactionID { transactionID = id }
                if let id = outcome.clientTransactionID { clientTransactionID = id }
                if !outcome.isOffline && status != .reconciled { status = .completed }
            case .failure:
                lastCallbackSucceeded = false
            case .invalid:
                break
            }
        case .offline(let offline):
            wasOffline = true
            clientTransactionID = offline.clientTransactionID
            offlineExpiresAtMicroseconds = offline.expiresAtMicroseconds
            if status != .reconciled { status = .offline }
        case .reconciled(let reconciled):
            status = .reconciled
            transactionID = reconciled.transactionID
            if reconciled.amountMismatch { hadAmountMismatch = true }
        case .failed(let failed):
            status = .failed
            if let code = failed.errorCode { errorCode = code }
            failureReason = failed.reason
        }
    }
}
