extension Payment {
    /// The state after `events`, applied in order to a payment with id `id`; nil when there are none.
    public static func replay(id: String, _ events: some Sequence<PaymentEvent>) -> Payment? {
        var payment: Payment?
        for event in events { Payment.evolve(&payment, id: id, event) }
        return payment
    }

    /// Applies one event to an optional payment (nil before its first event).
    public static func evolve(_ payment: inout Payment?, id: String, _ event: PaymentEvent) {
        if payment == nil {
            guard case .requested(let requested) = event else {
                // A stream must start with Requested; anything else still counts, on a placeholder.
                var placeholder = Payment(id: id, provider: .square)
                placeholder.apply(event)
                payment = placeholder
                return
            }
            payment = Payment(id: id, provider: requested.provider)
        }
        payment!.apply(event)
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
            callbackURLs.append(callback.callbackURL)
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
