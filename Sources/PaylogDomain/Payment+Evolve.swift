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
        switch event {
        case .requested(let requested): evolve(&payment, id: id, requested, observedAt: observedAt)
        case .appSwitched(let appSwitched): evolve(&payment, id: id, appSwitched)
        case .callbackReceived(let callback): evolve(&payment, id: id, callback, observedAt: observedAt)
        case .offline(let offline): evolve(&payment, id: id, offline, observedAt: observedAt)
        case .reconciled(let reconciled): evolve(&payment, id: id, reconciled, observedAt: observedAt)
        case .failed(let failed): evolve(&payment, id: id, failed, observedAt: observedAt)
        }
    }

    /// ``evolve(_:id:_:observedAt:)`` for a `Requested` event, without building a ``PaymentEvent``: what a
    /// rebuild's fold calls with the fields it decoded (the five overloads below likewise).
    public static func evolve(_ payment: inout Payment?, id: String, _ requested: Requested, observedAt: Int64?) {
        // A stream starts with Requested; its provider is the payment's.
        if case .none = payment { payment = Payment(id: id, provider: requested.provider) }
        payment?.apply(requested)
        // The earliest observed, whatever order the requests were recorded in (as the first callback's).
        if let observedAt, observedAt < payment?.firstRequestedAtMicroseconds ?? .max {
            payment?.firstRequestedAtMicroseconds = observedAt
        }
    }

    /// ``evolve(_:id:_:observedAt:)`` for an `AppSwitched` event (which sets no first-event time).
    public static func evolve(_ payment: inout Payment?, id: String, _ appSwitched: AppSwitched) {
        openPlaceholder(&payment, id: id)
        payment?.apply(appSwitched)
    }

    /// ``evolve(_:id:_:observedAt:)`` for a `CallbackReceived` event.
    public static func evolve(_ payment: inout Payment?, id: String, _ callback: CallbackReceived, observedAt: Int64?) {
        evolve(&payment, id: id, callback, fingerprint: CallbackFingerprint(rawURL: callback.callbackURL), observedAt: observedAt)
    }

    /// ``evolve(_:id:_:observedAt:)`` for a `CallbackReceived` event whose URL's fingerprint is already known
    /// (a rebuild's fold hashes the URL's bytes in the log and leaves ``CallbackReceived/callbackURL`` empty).
    public static func evolve(
        _ payment: inout Payment?, id: String, _ callback: CallbackReceived, fingerprint: CallbackFingerprint, observedAt: Int64?
    ) {
        openPlaceholder(&payment, id: id)
        payment?.apply(callback, fingerprint: fingerprint)
        // The earliest observed, not the first recorded: callbacks ingested out of order count from when they came.
        if let observedAt, observedAt < payment?.firstCallbackAtMicroseconds ?? .max {
            payment?.firstCallbackAtMicroseconds = observedAt
        }
        if callback.outcome.status == .success { payment?.noteSuccess(observedAt: observedAt) }
    }

    /// ``evolve(_:id:_:observedAt:)`` for an `Offline` event.
    public static func evolve(_ payment: inout Payment?, id: String, _ offline: Offline, observedAt: Int64?) {
        openPlaceholder(&payment, id: id)
        payment?.apply(offline)
        if let observedAt, payment?.offlineAtMicroseconds == nil { payment?.offlineAtMicroseconds = observedAt }
    }

    /// ``evolve(_:id:_:observedAt:)`` for a `Reconciled` event.
    public static func evolve(_ payment: inout Payment?, id: String, _ reconciled: Reconciled, observedAt: Int64?) {
        openPlaceholder(&payment, id: id)
        payment?.apply(reconciled)
        // A refund or a reversal is no evidence of payment, nor the payment's reconciliation.
        guard reconciled.reportsCharge else { return }
        if let observedAt, payment?.reconciledAtMicroseconds == nil { payment?.reconciledAtMicroseconds = observedAt }
        payment?.noteSuccess(observedAt: observedAt)
    }

    /// ``evolve(_:id:_:observedAt:)`` for a `Failed` event. With `observedAt`, a failure observed before the report
    /// line that paid, which makes the next success callback late, also keeps when it was observed
    /// (``failedBeforeSuccessAtMicroseconds``).
    public static func evolve(_ payment: inout Payment?, id: String, _ failed: Failed, observedAt: Int64?) {
        openPlaceholder(&payment, id: id)
        let wasLateAfterReport = payment?.reconciledWhileFailed == true
        payment?.apply(failed)
        guard failed.observedBeforeSuccess, payment?.reconciledWhileFailed == true, let observedAt else { return }
        if !wasLateAfterReport {
            payment?.failedBeforeSuccessAtMicroseconds = observedAt
        } else if let kept = payment?.failedBeforeSuccessAtMicroseconds, observedAt < kept {
            // Another failure observed before the report line, earlier than the one kept: the success is late from
            // the earlier, as recorded in the order observed it would be. (A kept time of nil is a failure recorded in
            // its order, judged in the order of recording: it stays nil.)
            payment?.failedBeforeSuccessAtMicroseconds = observedAt
        }
    }

    /// Keeps `observedAt` as ``firstSuccessAtMicroseconds`` when it is the earliest evidence of payment yet.
    private mutating func noteSuccess(observedAt: Int64?) {
        if let observedAt, observedAt < firstSuccessAtMicroseconds ?? .max { firstSuccessAtMicroseconds = observedAt }
    }

    /// A stream must start with `Requested`; an event of another kind first still counts, on a placeholder.
    private static func openPlaceholder(_ payment: inout Payment?, id: String) {
        if case .none = payment { payment = Payment(id: id, provider: .square) }
    }

    /// Applies one event. Pure: the same events always give the same state.
    public mutating func apply(_ event: PaymentEvent) {
        switch event {
        case .requested(let requested): apply(requested)
        case .appSwitched(let appSwitched): apply(appSwitched)
        case .callbackReceived(let callback): apply(callback)
        case .offline(let offline): apply(offline)
        case .reconciled(let reconciled): apply(reconciled)
        case .failed(let failed): apply(failed)
        }
    }

    /// Applies a `Requested` event (``apply(_:)-(PaymentEvent)`` for one kind; the five overloads below likewise).
    public mutating func apply(_ requested: Requested) {
        version += 1
        // Before a success any request starts a new attempt; after one, a request with a new reference (or none) does:
        // the same request observed again is the attempt that succeeded, whose failure still contradicts its success.
        let newAttempt = !hasSucceeded || requested.reference.map { !references.contains($0) } ?? true
        if hasSucceeded {
            hadRequestAfterSuccess = true
        } else {
            status = .requested
            provider = requested.provider
            amount = requested.amount
            apiVersion = requested.apiVersion
            appVersion = requested.appVersion
            // The status describes the new attempt: the failure of the one before is not its (it stays in the log).
            errorCode = nil
            failureReason = nil
        }
        // A new attempt, before a success or after it: its callbacks answer it, so a success of the retry does not
        // contradict the failure of the attempt before (a second charge still shows, as `multiple_charges`), nor its
        // decline the success of the attempt before.
        if newAttempt { lastCallbackSucceeded = nil }
        if let reference = requested.reference, !references.contains(reference) { references.append(reference) }
        requestedProviders.insert(requested.provider)
        reconciledWhileFailed = false
        failedBeforeSuccessAtMicroseconds = nil
    }

    /// Applies an `AppSwitched` event.
    public mutating func apply(_ appSwitched: AppSwitched) {
        version += 1
        sawAppSwitch = true
        if status == .requested { status = .switched }
    }

    /// Applies a `CallbackReceived` event.
    public mutating func apply(_ callback: CallbackReceived) {
        apply(callback, fingerprint: CallbackFingerprint(rawURL: callback.callbackURL))
    }

    /// Applies a `CallbackReceived` event whose URL's fingerprint is `fingerprint` (its ``CallbackReceived/callbackURL``
    /// is not read).
    public mutating func apply(_ callback: CallbackReceived, fingerprint: CallbackFingerprint) {
        version += 1
        // The same callback delivered again: its first delivery already did all it does.
        if callback.isRedelivery { return }
        callbackFingerprints.append(fingerprint)
        sawCallback = true
        // `late_callback` is the disputed case: a success after the payment had failed (the customer charged after
        // the shop gave up). A late failure is noted in the audit but charged nobody.
        if callback.isLate && callback.outcome.status == .success { hadLateCallback = true }
        if callback.contradictsEarlier { hadContradictingCallbacks = true }
        let outcome = callback.outcome
        // The code describes the attempt the status shows: not one a retry replaced, nor, once the payment has
        // succeeded, a failure that does not contradict the success (a retry's decline after it).
        if let code = outcome.errorCode, outcome.status != .success, !callback.answersEarlierAttempt,
            !hasSucceeded || callback.contradictsEarlier
        {
            errorCode = code
        }
        switch outcome.status {
        case .success:
            // Only a success moves a failed payment on (a failure or an unreadable callback leaves it failed), so only
            // a success ends the lateness a reconciliation while failed carries.
            reconciledWhileFailed = false
            failedBeforeSuccessAtMicroseconds = nil
            sawSuccess = true
            if let charge = outcome.clientTransactionID ?? outcome.transactionID {
                // Provider ids are opaque: compared byte for byte, not as canonically equivalent text.
                if let first = firstCharge {
                    if !charge.utf8.elementsEqual(first.utf8) { hadMultipleCharges = true }
                } else {
                    firstCharge = charge
                }
            }
            // The attempt in progress's last callback: one answering an attempt a retry replaced is not its.
            if !callback.answersEarlierAttempt { lastCallbackSucceeded = true }
            if let id = outcome.transactionID { transactionID = id }
            if let id = outcome.clientTransactionID { clientTransactionID = id }
            // The first success the status stands on: the code of a failure before it (a retry's decline, recorded
            // before a replaced attempt's late success) does not describe it, as it would not had they been recorded
            // the other way round.
            if !hasSucceeded { errorCode = nil }
            if !outcome.isOffline && status != .reconciled { status = .completed }
        case .failure:
            if !callback.answersEarlierAttempt { lastCallbackSucceeded = false }
        case .invalid:
            break
        }
    }

    /// Applies an `Offline` event.
    public mutating func apply(_ offline: Offline) {
        version += 1
        wasOffline = true
        clientTransactionID = offline.clientTransactionID
        offlineExpiresAtMicroseconds = offline.expiresAtMicroseconds
        if status != .reconciled { status = .offline }
    }

    /// Applies a `Reconciled` event.
    public mutating func apply(_ reconciled: Reconciled) {
        version += 1
        let charge = ReportedCharge(transactionID: reconciled.transactionID, amount: reconciled.amount)
        guard reconciled.reportsCharge else {
            // A refund or a reversal on the report: evidence, kept so that the same line again is recognised, but no
            // money taken, so it reconciles nothing, is no further charge and sets no flag.
            laterReportedCharges.append(charge)
            return
        }
        if status == .failed {
            // Judged in the order of recording: the failure was recorded in its order.
            reconciledWhileFailed = true
            failedBeforeSuccessAtMicroseconds = nil
        }
        if let first = firstReportedCharge {
            laterReportedCharges.append(charge)
            // Another transaction on the provider's report is another charge (the same one with another amount is a
            // corrected line). Comparing with the first line is enough: a later one that differed set the flag then.
            if !charge.transactionID.utf8.elementsEqual(first.transactionID.utf8) { hadMultipleCharges = true }
        } else {
            firstReportedCharge = charge
        }
        status = .reconciled
        transactionID = reconciled.transactionID
        if reconciled.amountMismatch { hadAmountMismatch = true }
    }

    /// Applies a `Failed` event.
    public mutating func apply(_ failed: Failed) {
        version += 1
        // A further failure of a payment already failed: the first stands (its reason, its code, its attempt).
        if failed.repeatsFailure { return }
        // The attempt in progress failed (the latest reference's: ``attemptBit(_:)``).
        if !references.isEmpty { failedAttempts |= 1 << UInt64(min(references.count - 1, 63)) }
        failedProviders.insert(provider)
        failureReason = failed.reason
        if failed.observedBeforeSuccess {
            // The shop gave up before the success came: nothing fails. Every success callback recorded was observed
            // after it, so is late, as recorded after it the first would have been; with none, a report line
            // reconciled the payment, and the next success callback observed after it is late, as after a
            // reconciliation while failed (one observed before it would have come first, and this failure been refused).
            if sawSuccess { hadLateCallback = true } else if status == .reconciled { reconciledWhileFailed = true }
            return
        }
        status = .failed
        // The failure's own code: none for an expiry or an operator's failure, which an earlier callback's code
        // (say, a declined attempt before an offline success) does not describe.
        errorCode = failed.errorCode
    }
}
