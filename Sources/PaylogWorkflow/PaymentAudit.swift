import Foundation
import PaylogDomain
import PaylogStore

/// The audit view of one payment: its full timeline with raw evidence, readings and findings.
///
/// Derived on demand from the payment's stream (a few events), never from a stored copy, so it always shows
/// exactly what the log holds and cannot drift from it.
public enum PaymentAudit {
    /// Field names of personal data (SumUp receipt prefills), hidden unless `includePersonalData`.
    public static let personalFields: Set<String> = ["receipt-email", "receipt-mobilephone"]

    /// The timeline of `paymentID`.
    public static func entries(of paymentID: String, in store: EventStore, includePersonalData: Bool = true) throws -> [AuditEntry] {
        var judge = EvidenceJudge()
        // When the failures were observed: a callback recorded after one may have been observed before it.
        var failures = FailureTimes()
        // The payment before the step: a request, or a failure callback, after a success is worth a note.
        var before: Payment?
        // The latest failure, while the payment stands failed: a report line after it says the money was taken.
        var standingFailure: Failed?
        // The charges the success callbacks reported so far: a new one is a second charge.
        var charges: [String] = []
        // The transaction ids Square's success callbacks reported: a Square report line naming another is worth a look.
        var reportedByCallbacks: [String] = []
        // The report lines recorded before: a second, different line is a fact to look at.
        var earlierLines: [Reconciled] = []
        return try PaymentHistory.steps(of: paymentID, in: store).map { step in
            let (reading, findings) = judge.judge(step.event, decoded: step.decoded)
            var notes: [String] = []
            var evidence: String?
            switch step.decoded {
            case .requested(let e):
                evidence = e.launchURL
                if e.builtByPaylog { notes.append("built by paylog") }
                if before?.hasSucceeded == true { notes.append(PaymentAudit.requestAfterSuccessNote) }
            case .callbackReceived(let e):
                evidence = e.callbackURL
                if e.isLate { notes.append(failures.lateNote(for: e, observedAt: step.event.observedAt, before: before)) }
                if e.isRedelivery { notes.append(PaymentAudit.redeliveryNote) }
                if e.answersEarlierAttempt { notes.append(PaymentAudit.earlierAttemptNote(e.outcome)) }
                if e.contradictsEarlier { notes.append("CONTRADICTS an earlier callback") }
                else if e.isRepeat && !e.isRedelivery { notes.append("a further, different callback") }
                if e.outcome.isOffline { notes.append("offline payment") }
                if e.outcome.status == .failure, !e.contradictsEarlier, !e.isRedelivery, before?.hasSucceeded == true {
                    notes.append("a failure recorded after the payment had succeeded, contradicting no success of its attempt: "
                        + "it fails nothing")
                }
                // Only Square's report names a charge by the id its callback gave (SumUp's callback gives the
                // transaction code, iZettle's its reference number: other ids than their reports' transaction ids).
                if e.outcome.provider == .square, e.outcome.status == .success, let id = e.outcome.transactionID,
                    !reportedByCallbacks.contains(id)
                {
                    reportedByCallbacks.append(id)
                }
                if e.outcome.status == .success, let charge = e.outcome.clientTransactionID ?? e.outcome.transactionID,
                    !charges.contains(where: { $0.utf8.elementsEqual(charge.utf8) })
                {
                    if !charges.isEmpty {
                        notes.append("ANOTHER SUCCESSFUL CHARGE (\(charge); earlier \(charges.joined(separator: ", "))): the "
                            + "customer may have been charged more than once")
                    }
                    charges.append(charge)
                }
            case .reconciled(let e):
                evidence = e.reportLine
                notes.append(e.matchedBy == "payment"
                    ? "matched by payment: the line names it (matched by hand: its keys named no recorded payment)"
                    : "matched by \(e.matchedBy)")
                if !e.reportsCharge, let amount = e.amount {
                    // Recorded as reported (the line is evidence); it reconciles nothing, and the notes on charges
                    // below are not about it (nor the amount mismatch earlier builds recorded for such a line).
                    notes.append("THE REPORTED AMOUNT IS \(amount.minorUnits == 0 ? "ZERO" : "NEGATIVE") (\(amount)): not a "
                        + "charge, so it reconciles nothing; a refund, a reversal or an error in the report — check the "
                        + "provider's report")
                    break
                }
                if e.amountMismatch { notes.append("AMOUNT MISMATCH with the request") }
                if !earlierLines.isEmpty { notes.append(PaymentAudit.furtherLineNote(e, earlier: earlierLines)) }
                if !reportedByCallbacks.isEmpty, !reportedByCallbacks.contains(e.transactionID),
                    PaymentAudit.reportProvider(of: e) == .square
                {
                    notes.append("the report's transaction id \(e.transactionID) is not one the success callbacks reported "
                        + "(\(reportedByCallbacks.joined(separator: ", "))): check it is the same charge")
                }
                earlierLines.append(e)
                if let failure = standingFailure {
                    notes.append(PaymentAudit.reconciledAfterFailureNote(
                        failure, observedAt: step.event.observedAt, failureObservedAt: failures.latest))
                }
            case .failed(let e):
                // An expiry's reason gives the window's end in microseconds; an operator's is shown as typed, and is
                // the failure's evidence, as `replay --payment` shows it.
                let reason = e.source == .expiry ? PaymentAudit.readable(e.reason) : e.reason
                evidence = reason
                notes.append("failed by \(e.source.rawValue): \(reason)")
                if e.observedBeforeSuccess {
                    notes.append(PaymentAudit.failedBeforeSuccessNote(observedAt: step.event.observedAt, state: step.state))
                }
                if e.repeatsFailure {
                    // The first failure stands: later notes compare with its time and name its reason.
                    notes.append("a further failure of a payment already failed: it fails nothing, and the first failure stands")
                } else {
                    failures.noteFailure(observedAt: step.event.observedAt, state: step.state)
                }
            case .offline(let e):
                if let expiry = e.expiresAtMicroseconds { notes.append("expires \(Timestamp(microseconds: expiry).rfc3339) unless reconciled") }
            case .appSwitched(let e):
                // The till's note on the switch is what was observed of it (`replay --payment` shows it too).
                if !e.note.isEmpty { evidence = e.note }
            }
            if step.state.status == .failed, case .failed(let e) = step.decoded, !e.repeatsFailure { standingFailure = e }
            if step.state.status != .failed { standingFailure = nil }
            before = step.state
            var shownReading = reading
            if !includePersonalData, let fields = reading {
                shownReading = fields.filter { !personalFields.contains($0.key.lowercased()) }
                if shownReading!.count != fields.count { notes.append("personal data hidden") }
                if let raw = evidence, case let redacted = PaymentAudit.redact(raw), redacted != raw {
                    evidence = redacted
                    if !notes.contains("personal data hidden") { notes.append("personal data hidden") }
                }
            }
            return AuditEntry(
                event: step.event, decoded: step.decoded, evidence: evidence, reading: shownReading, notes: notes,
                findings: findings, state: step.state)
        }
    }

    /// Each event's audit notes (``AuditEntry/notes``) by log position, for the events that have any: what
    /// `paylog replay --payment` and `GET /v1/payments/{id}/replay` print beside each step, so that the payment as it
    /// stood at a moment reads as its audit does. A note depends only on the events before it, so the notes of the
    /// steps up to a cutoff are those of the whole timeline's first steps.
    public static func notesByPosition(
        of paymentID: String, in store: EventStore, includePersonalData: Bool = true
    ) throws -> [UInt64: [String]] {
        var notes: [UInt64: [String]] = [:]
        for entry in try entries(of: paymentID, in: store, includePersonalData: includePersonalData)
        where !entry.notes.isEmpty {
            notes[entry.event.position] = entry.notes
        }
        return notes
    }

    /// The provider whose report `line` is, read from the recorded line (every report line names it); nil when the
    /// line no longer reads as one.
    static func reportProvider(of line: Reconciled) -> Provider? {
        guard case .reconcile(_, let reportLine)? = try? Observation.parse(line.reportLine, defaultKind: "reconcile") else {
            return nil
        }
        return reportLine.provider
    }

    /// The note on a report line recorded after others (`earlier`, in order) for the same payment: a report exported
    /// again with a corrected amount (the same transaction id), or a second charge the provider reported under another
    /// transaction id (each line is judged against its own attempt's amount: ``Reconciled/amountMismatch``).
    static func furtherLineNote(_ line: Reconciled, earlier: [Reconciled]) -> String {
        if let same = earlier.last(where: { $0.transactionID.utf8.elementsEqual(line.transactionID.utf8) }) {
            var note = "a further report line for this payment with the same transaction id"
            if line.amount != same.amount {
                note += ": AMOUNT DIFFERS from the earlier line's (\(same.amount?.description ?? "none") → \(line.amount?.description ?? "none"))"
            }
            return note
        }
        func charge(_ line: Reconciled) -> String { line.transactionID + (line.amount.map { ", \($0)" } ?? "") }
        // Each earlier transaction once, with its latest line's amount, in the order of those latest lines.
        var others: [Reconciled] = []
        for other in earlier.reversed() {
            if !others.contains(where: { $0.transactionID.utf8.elementsEqual(other.transactionID.utf8) }) { others.insert(other, at: 0) }
        }
        return "ANOTHER CHARGE REPORTED (\(charge(line)); earlier \(others.map(charge).joined(separator: "; "))): the provider "
            + "reports more than one transaction for this payment, so the customer may have been charged more than once"
    }

    /// The note on a request recorded after the payment had succeeded (`request_after_success`).
    static let requestAfterSuccessNote = "REQUEST AFTER SUCCESS: the payment had already succeeded; this request "
        + "changes no status, and its callbacks answer it, not the attempt that succeeded (flag request_after_success)"

    /// The note on a failure recorded after the payment had succeeded but observed before the success
    /// (``Failed/observedBeforeSuccess``): the shop gave up before the success came. `state`: the payment after it.
    static func failedBeforeSuccessNote(observedAt: Timestamp?, state: Payment) -> String {
        let success = state.firstSuccessAtMicroseconds.map { " (observed \(Timestamp(microseconds: $0).rfc3339))" } ?? ""
        let observed = observedAt.map { " at \($0.rfc3339)" } ?? ""
        return "RECORDED AFTER THE PAYMENT HAD SUCCEEDED, but observed\(observed), before the success\(success): the shop "
            + "gave up before the success came; this failure fails nothing, and "
            + (state.sawSuccess ? "the success is LATE" : "the report line took the money after the shop gave up")
    }

    /// The note on a report line that reconciled a payment standing failed: the money was taken after all. When the
    /// line was observed before the failure (an expiry run before the report arrived, say), the failure was premature.
    static func reconciledAfterFailureNote(_ failure: Failed, observedAt: Timestamp?, failureObservedAt: Timestamp?) -> String {
        var note = "RECONCILED AFTER THE PAYMENT HAD FAILED (by \(failure.source.rawValue)): the provider reports the money taken"
        if let observedAt, let failureObservedAt, observedAt < failureObservedAt {
            note += "; the report line was observed at \(observedAt.rfc3339), before the failure (observed "
                + "\(failureObservedAt.rfc3339)): the failure was premature"
        }
        return note
    }

    /// `reason` with each `µs N` (a time in microseconds, as an expiry's reason gives it) written as an RFC 3339 time.
    public static func readable(_ reason: String) -> String {
        guard let marker = reason.range(of: "µs ") else { return reason }
        let digits = reason[marker.upperBound...].prefix { $0.isASCII && $0.isNumber }
        guard let microseconds = Int64(digits) else { return reason }
        let rest = readable(String(reason[digits.endIndex...]))
        return String(reason[..<marker.lowerBound]) + Timestamp(microseconds: microseconds).rfc3339 + rest
    }

    /// The note on a callback recorded after its payment had failed. "Late" is in the order of recording; when the
    /// callback's own observed time is earlier than the failure's (a device's callbacks delivered after an
    /// operator's or a timeout's failure), the note says so: the failure may have been premature, which is what a
    /// dispute turns on.
    ///
    /// With `ofFailedAttempt`, the callback answers an attempt a retry replaced, and is late because that attempt had
    /// failed (`failureObservedAt` is that attempt's failure), whatever attempt was in progress.
    static func lateNote(observedAt: Timestamp?, failureObservedAt: Timestamp?, ofFailedAttempt: Bool = false) -> String {
        let failed = ofFailedAttempt ? "the attempt it answers had failed" : "the payment had failed"
        guard let observedAt, let failureObservedAt, observedAt < failureObservedAt else {
            return "LATE: arrived after \(failed)"
        }
        return "LATE: recorded after \(failed), but observed at \(observedAt.rfc3339), before the failure "
            + "(observed \(failureObservedAt.rfc3339)): the failure was recorded first and may have been premature"
    }

    /// The note on a callback delivered again (``CallbackReceived/isRedelivery``).
    public static let redeliveryNote = "DELIVERED AGAIN: byte for byte a callback recorded before; it changes nothing "
        + "of the payment, but a shop's app may have acted on it twice"

    /// The note on a callback that answers an attempt a retry replaced (``CallbackReceived/answersEarlierAttempt``):
    /// it neither failed nor contradicted the attempt in progress, but a success of it is a charge all the same.
    static func earlierAttemptNote(_ outcome: CallbackOutcome) -> String {
        let reference = outcome.reference.map { " (reference \($0))" } ?? " (\(outcome.provider.rawValue)'s, echoing no reference)"
        return "answers an earlier attempt\(reference) that a retry replaced, not the attempt in progress"
    }

    /// The URL with the values of personal-data query items replaced by `REDACTED`, every other byte as observed.
    ///
    /// The query is split on `&` by hand, not rebuilt through `URLComponents` (which re-encoded a raw space and
    /// double-encoded nested URLs: bytes never observed, in the copy people are told to forward). An item is
    /// personal when its name, percent-decoded and lower-cased, is one of ``personalFields``, so that
    /// `receipt%2Demail` or `Receipt-Email` is hidden too. The fragment, if any, is kept.
    public static func redact(_ url: String) -> String {
        guard let question = url.firstIndex(of: "?") else { return url }
        let fragmentStart = url[question...].firstIndex(of: "#") ?? url.endIndex
        let query = url[url.index(after: question)..<fragmentStart]
        var changed = false
        let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> Substring in
            let name = item.prefix { $0 != "=" }
            let decoded = (String(name).removingPercentEncoding ?? String(name)).lowercased()
            guard personalFields.contains(decoded), name.count < item.count else { return item }
            changed = true
            return name + "=REDACTED"
        }
        guard changed else { return url }
        return String(url[...question]) + items.joined(separator: "&") + String(url[fragmentStart...])
    }
}
