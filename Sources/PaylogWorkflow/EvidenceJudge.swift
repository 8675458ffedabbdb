import PaylogCompatibility
import PaylogDomain
import PaylogProviders
import PaylogStore

/// Judges a payment's recorded evidence, event by event, with the compatibility checker: each `Requested`
/// launch URL against the version it claims, each `CallbackReceived` URL against the contract and the payment's
/// request it answers. The raw evidence is re-read with today's adapters; the log itself is never changed.
///
/// A callback is judged against the request whose reference it echoes (a late callback of an earlier attempt is
/// that attempt's, not "another payment's"), else the payment's latest; one that does not say its outcome is read
/// against the requests' callback URLs, as the workflow records it (``PaymentWorkflow/reread(_:url:requests:)``).
/// A SumUp callback is also read against that request's `callbacksuccess` / `callbackfail`, so that a status
/// contradicting the URL it came on is noted when the shop built its own URLs (without paylog's marker).
/// When today's reading decides an outcome the recorded one left unknown (recorded before paylog matched
/// callbacks to their requests), that is a finding: the payment's status did not take the outcome into account.
public struct EvidenceJudge: Sendable {
    /// Each payment's requests so far, newest first.
    private var requests: [String: [LaunchRequest]] = [:]
    /// Who first sent each reference (provider and reference → payment and position), to note a reuse: within one
    /// payment's audit its own requests, in a whole replay every payment's.
    private var referenceOwners: [String: (payment: String, position: UInt64)] = [:]

    /// A judge with no history.
    public init() {}

    /// The findings for one event (in log order per payment), and the reading of its evidence when it has any.
    public mutating func judge(_ event: RecordedEvent, decoded: PaymentEvent) -> (reading: [String: String]?, findings: [Finding]) {
        switch decoded {
        case .requested(let requested):
            do {
                let request = try Providers.parseLaunch(requested.launchURL, appVersion: requested.appVersion)
                requests[event.streamID, default: []].insert(request, at: 0)
                var findings = CompatibilityChecker.check(request: request, payment: event.streamID, position: event.position)
                if let reused = reuse(of: request, by: event) { findings.append(reused) }
                return (request.fields, findings)
            } catch {
                return (nil, [Finding(
                    payment: event.streamID, position: event.position, severity: .error, basis: .confirmed,
                    rule: "evidence.request-unreadable",
                    message: "The recorded launch URL can no longer be read: \(error)")])
            }
        case .callbackReceived(let received):
            let known = requests[event.streamID] ?? []
            do {
                let alone = try Providers.parseCallback(received.callbackURL, provider: received.outcome.provider)
                var outcome = PaymentWorkflow.reread(alone, url: received.callbackURL) { known }
                // The request it answers: the one whose reference it echoes, else the latest.
                let request = PaymentWorkflow.ordered(known, for: outcome).first ?? known.first
                // A SumUp status is read from `smp-status` whatever URL it came on; read against the request's
                // callbacksuccess / callbackfail too, a status contradicting the URL the app opened is noted (the
                // reading is otherwise the same: `smp-status` decides).
                if outcome.provider == .sumup, outcome.status != .invalid(""), let request, request.provider == .sumup,
                    !outcome.parseNotes.contains(where: { if case .statusContradictsOpenedURL = $0 { true } else { false } }),
                    let matched = try? Providers.parseCallback(received.callbackURL, provider: .sumup, hint: .launch(request)),
                    matched.status == outcome.status
                {
                    outcome = matched
                }
                var findings = CompatibilityChecker.check(
                    callback: outcome, request: request, payment: event.streamID, position: event.position)
                if received.outcome.status == .invalid(""), outcome.status != .invalid("") {
                    findings.append(Finding(
                        payment: event.streamID, position: event.position, severity: .warning, basis: .inferred,
                        rule: "evidence.callback-outcome-undetermined-when-recorded",
                        message: "Recorded with an unknown outcome, but matched against the payment's request it reports "
                            + "\(outcome.status == .success ? "success" : "failure"); the payment's status did not take it "
                            + "into account (it was recorded before paylog matched callbacks to their requests)."))
                }
                return (outcome.fields, findings)
            } catch {
                return (nil, [Finding(
                    payment: event.streamID, position: event.position, severity: .error, basis: .confirmed,
                    rule: "evidence.callback-unreadable",
                    message: "The recorded callback URL can no longer be read: \(error)")])
            }
        case .appSwitched, .offline, .reconciled, .failed:
            return (nil, [])
        }
    }

    /// `evidence.reference-reused`: `request` (recorded as `event`) carries a reference an earlier request sent.
    /// SumUp's contract asks a new `foreign-tx-id` per attempt, unique per merchant [C] (a reused one can fail as a
    /// duplicate); for every provider, paylog routes a callback by the reference it echoes, so the reference goes to
    /// the payment that sent it last.
    private mutating func reuse(of request: LaunchRequest, by event: RecordedEvent) -> Finding? {
        guard let reference = request.reference, !reference.isEmpty else { return nil }
        let key = "\(request.provider.rawValue):\(reference)"
        guard let owner = referenceOwners[key] else {
            referenceOwners[key] = (event.streamID, event.position)
            return nil
        }
        referenceOwners[key] = (event.streamID, event.position)
        let whose = owner.payment == event.streamID
            ? "an earlier attempt of this payment (#\(owner.position))"
            : "payment \(owner.payment)'s request (#\(owner.position))"
        let contract = request.provider == .sumup
            ? "SumUp asks a new foreign-tx-id for every attempt, unique per merchant: the app can refuse this one as a "
                + "duplicate although no transaction was made. "
            : ""
        return Finding(
            payment: event.streamID, position: event.position, severity: .warning,
            basis: request.provider == .sumup ? .confirmed : .inferred, rule: "evidence.reference-reused",
            message: "Reuses reference \(reference.prefix(64)) of \(whose). \(contract)A callback echoing it is routed to "
                + "the payment that sent it last (\(event.streamID)).")
    }
}
