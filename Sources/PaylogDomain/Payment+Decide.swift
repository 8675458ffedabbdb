extension Payment {
    /// How long the provider keeps an offline payment that was never uploaded (Square: 24 hours).
    public static func offlineWindowMicroseconds(_ provider: Provider) -> Int64? {
        provider == .square ? 24 * 3600 * 1_000_000 : nil
    }

    /// Decides the events `command` produces for the payment `payment` (nil when it has no events yet).
    ///
    /// Returns an empty list when the command changes nothing (a report line repeating the
    /// transaction id and amount of one recorded before, expiring a payment that has not expired); throws when the
    /// command cannot apply (see ``PaymentRejection``). Failing an already failed payment records the failure as
    /// evidence that fails nothing (``Failed/repeatsFailure``).
    ///
    /// - Parameter at: when the fact was observed, µs since the epoch (used for offline expiry).
    public static func decide(
        _ command: PaymentCommand, for payment: Payment?, id: String, at: Int64?
    ) throws(PaymentRejection) -> [PaymentEvent] {
        if case .request(let request, let built) = command {
            return [.requested(Requested(
                launchURL: request.rawURL, provider: request.provider, amount: request.amount,
                reference: request.reference, apiVersion: request.apiVersion, appVersion: request.appVersion,
                builtByPaylog: built))]
        }
        guard let payment else { throw .unknownPayment(id) }
        switch command {
        case .request:
            return []  // handled above
        case .switchApp(let note):
            return [.appSwitched(AppSwitched(note: note))]
        case .receiveCallback(let outcome):
            return try payment.decideCallback(outcome, at: at)
        case .reconcile(let line, let matchedBy, let attemptAmount):
            // The same transaction with the same amount again (a report ingested twice, through `reconcile` and
            // `ingest`, exported again) is a duplicate; another amount for it, or another transaction, is evidence
            // of its own.
            if payment.hasRecorded(ReportedCharge(transactionID: line.transactionID, amount: line.amount)) { return [] }
            // Judged against the attempt the line matched (a retry may have asked another amount).
            let requested = attemptAmount ?? payment.amount
            // A negative or zero amount is no charge (``Reconciled/reportsCharge``): nothing to compare with a request.
            let mismatch = line.amount != nil && Reconciled.reportsCharge(line.amount) && requested != nil
                && line.amount != requested
            return [.reconciled(Reconciled(
                reportLine: line.rawLine, transactionID: line.transactionID, matchedBy: matchedBy,
                amount: line.amount, amountMismatch: mismatch))]
        case .fail(let reason):
            // Observed after the payment had failed: evidence (the log keeps every distinct observation), failing
            // nothing again. The same observation again is recognised before deciding, by its event id.
            if payment.status == .failed {
                return [.failed(Failed(source: .operator_, errorCode: nil, reason: reason, repeatsFailure: true))]
            }
            // The shop gave up before the success came (a till's timeout ingested after the callback that paid): its
            // failure is evidence, recorded; it fails nothing, and makes the success late, as recorded first it would.
            if payment.hasSucceeded, let at, let succeeded = payment.firstSuccessAtMicroseconds, at < succeeded {
                return [.failed(Failed(source: .operator_, errorCode: nil, reason: reason, observedBeforeSuccess: true))]
            }
            if payment.status == .completed || payment.status == .reconciled {
                throw .alreadySucceeded(payment: id, status: payment.status)
            }
            return [.failed(Failed(source: .operator_, errorCode: nil, reason: reason))]
        case .expire(let now):
            guard payment.status == .offline, let expiry = payment.offlineExpiresAtMicroseconds, expiry <= now else { return [] }
            return [.failed(Failed(
                source: .expiry, errorCode: nil,
                reason: "offline payment not reconciled within the provider's window (expired at µs \(expiry))"))]
        }
    }

    /// A callback answering `reference` (nil: the attempt in progress, as for any callback answering it) now arrives
    /// late: after the payment failed, and nothing but a report line has happened since (a report line that
    /// reconciled the failed payment first must not make its own callback look on time, or the same facts would read
    /// differently in another ingest order); or, answering an attempt a retry replaced, after that attempt had failed.
    /// A failure observed before the report line that paid is the exception, as it was judged by when it was observed:
    /// a callback observed (`at`) before it is not late on its account (``failedBeforeSuccessAtMicroseconds``).
    private func isLateForCallback(answering reference: String?, at: Int64?) -> Bool {
        if status == .failed { return true }
        if reconciledWhileFailed {
            guard let failedAt = failedBeforeSuccessAtMicroseconds, let at, at < failedAt else { return true }
        }
        guard let reference, let bit = attemptBit(reference) else { return false }
        return failedAttempts & bit != 0
    }

    /// The callback answers an attempt a retry has replaced: it echoes the reference of an earlier request of this
    /// payment, not the latest one (the latest reference is the last one first seen; a retry reusing an older
    /// reference is not told apart); or, echoing none of its requests' references, it comes from another provider
    /// than the attempt in progress's, before any success (a Square request need not carry a `state` to echo, so a
    /// late Square success after a retry with SumUp says only its provider; after a success, ``provider`` is the
    /// attempt that succeeded, not a later request's, so the provider tells nothing then).
    private func answersEarlierAttempt(_ outcome: CallbackOutcome) -> Bool {
        if let reference = outcome.reference {
            guard let latest = references.last else { return false }
            return reference != latest && references.contains(reference)
        }
        return !hasSucceeded && outcome.provider != provider && wasRequested(with: outcome.provider)
    }

    private func decideCallback(_ outcome: CallbackOutcome, at: Int64?) throws(PaymentRejection) -> [PaymentEvent] {
        // The same callback again, delivered at another moment (the same observation sent twice has the same event
        // id and never gets here): evidence of the delivery, changing nothing else.
        if callbackFingerprints.contains(CallbackFingerprint(rawURL: outcome.rawURL)) {
            return [.callbackReceived(CallbackReceived(
                callbackURL: outcome.rawURL, outcome: outcome, isRepeat: true, isLate: false, contradictsEarlier: false,
                answersEarlierAttempt: answersEarlierAttempt(outcome), isRedelivery: true))]
        }
        // A callback of an earlier attempt's provider (retried with another) is late evidence: recorded.
        if !wasRequested(with: outcome.provider) {
            throw .providerMismatch(payment: id, expected: provider, got: outcome.provider)
        }
        let succeeded: Bool? = switch outcome.status {
        case .success: true
        case .failure: false
        case .invalid: nil
        }
        // A callback answering an attempt a retry replaced is compared with nothing of the attempt in progress
        // (whose last callback ``lastCallbackSucceeded`` is), and the attempt in progress never with it.
        let earlier = answersEarlierAttempt(outcome)
        let contradicts = !earlier && succeeded != nil && lastCallbackSucceeded != nil && succeeded != lastCallbackSucceeded
        var events: [PaymentEvent] = [.callbackReceived(CallbackReceived(
            callbackURL: outcome.rawURL, outcome: outcome, isRepeat: !callbackFingerprints.isEmpty,
            isLate: isLateForCallback(answering: earlier ? outcome.reference : nil, at: at)
                // Answering a replaced attempt it names only by its provider: late when that provider's attempt failed.
                || (earlier && outcome.reference == nil && failedProviders.contains(outcome.provider)),
            contradictsEarlier: contradicts,
            answersEarlierAttempt: earlier))]
        switch succeeded {
        case true?:
            // Only a payment not yet paid goes offline: an offline success after an online one (a second charge on
            // the device) is recorded as a callback, but must not send a completed payment back to offline, where
            // `paylog expire` would fail it.
            if outcome.isOffline, let clientID = outcome.clientTransactionID, !hasSucceeded {
                let expiry = at.flatMap { at in Payment.offlineWindowMicroseconds(outcome.provider).map { at + $0 } }
                events.append(.offline(Offline(clientTransactionID: clientID, expiresAtMicroseconds: expiry)))
            }
        case false?:
            // A failure after a success is recorded (it is evidence) but does not undo the success; nor does an
            // earlier attempt's failure arriving after a retry began fail the attempt in progress.
            if !hasSucceeded && status != .failed && !earlier {
                events.append(.failed(Failed(
                    source: .provider, errorCode: outcome.errorCode,
                    reason: outcome.message ?? "the provider reported \(outcome.errorCode ?? "a failure")")))
            }
        case nil:
            break
        }
        return events
    }
}
