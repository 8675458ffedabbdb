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
///
/// A payment's audit keeps everything it has judged. A whole-log replay cannot: a payment's requests are about 1.5 KB
/// parsed, and a 1 M-payment log kept them all (1.5 GB). Judging a replay (``init(rereading:keepingRequestsOf:)``), it
/// keeps the requests of the latest payments only and re-reads an older payment's from the store when a late callback
/// or a retry comes; and it keeps each reference as a hash and the position of its last request, re-reading that
/// request to name its payment. Two references with one 64-bit hash (not expected in a log's lifetime) are told apart
/// by that re-reading, so no reuse is reported falsely; the earlier one's slot is taken, so a later reuse of it would
/// go unreported.
public struct EvidenceJudge: Sendable {
    /// Each payment's requests so far, newest first (only the latest payments' when ``store`` is set).
    private var requests: [String: [LaunchRequest]] = [:]
    /// The payments in the order their requests were kept, from ``orderStart`` on: the oldest go first.
    private var order: [String] = []
    private var orderStart = 0
    /// Who sent each reference last (provider and reference → payment and position), to note a reuse: within one
    /// payment's audit its own requests. Not used when ``store`` is set.
    private var referenceOwners: [String: (payment: String, position: UInt64)] = [:]
    /// With ``store``: the position of the last request that sent each reference, by a hash of provider and reference.
    private var referencePositions: [Int: UInt64] = [:]
    /// Where a replay's judge re-reads what it no longer keeps; nil: it keeps everything.
    private let store: EventStore?
    /// The most payments whose requests are kept when ``store`` is set.
    private let capacity: Int

    /// A judge with no history, keeping everything it judges (a payment's audit).
    public init() {
        store = nil
        capacity = .max
    }

    /// A judge for a replay of the whole of `store`, in log order: it keeps the requests of at most `capacity`
    /// payments, letting the first kept go first (in log order, the payment whose first request is oldest), and
    /// re-reads a payment's from `store` when it needs them again.
    public init(rereading store: EventStore, keepingRequestsOf capacity: Int = 20_000) {
        self.store = store
        self.capacity = max(capacity, 1)
    }

    /// The findings for one event (in log order per payment), and the reading of its evidence when it has any.
    public mutating func judge(_ event: RecordedEvent, decoded: PaymentEvent) -> (reading: [String: String]?, findings: [Finding]) {
        switch decoded {
        case .requested(let requested):
            do {
                let request = try Providers.parseLaunch(requested.launchURL, appVersion: requested.appVersion)
                keep([request] + knownRequests(before: event), for: event.streamID)
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
            let known = knownRequests(before: event)
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
        let owner: (payment: String, position: UInt64)
        if let store {
            let hash = key.hashValue
            guard let position = referencePositions.updateValue(event.position, forKey: hash),
                let sender = try? Self.request(at: position, in: store),
                sender.request.provider == request.provider, sender.request.reference == reference
            else { return nil }
            owner = (sender.payment, position)
        } else {
            guard let known = referenceOwners.updateValue((event.streamID, event.position), forKey: key) else { return nil }
            owner = known
        }
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

    /// The requests of `event`'s payment recorded before it, newest first: kept, or re-read from ``store`` (a payment
    /// whose requests were let go, or one that has none yet).
    private mutating func knownRequests(before event: RecordedEvent) -> [LaunchRequest] {
        if let known = requests[event.streamID] { return known }
        guard let store, event.version > 1 else { return [] }
        let reread = (try? Self.requests(of: event.streamID, before: event.version, in: store)) ?? []
        if !reread.isEmpty { keep(reread, for: event.streamID) }
        return reread
    }

    /// Keeps `list` as `stream`'s requests; with ``store``, lets the oldest payments' go past ``capacity``.
    private mutating func keep(_ list: [LaunchRequest], for stream: String) {
        guard requests.updateValue(list, forKey: stream) == nil, store != nil else { return }
        order.append(stream)
        while requests.count > capacity, orderStart < order.count {
            requests.removeValue(forKey: order[orderStart])
            orderStart += 1
        }
        if orderStart > 4_096, orderStart * 2 > order.count {
            order.removeFirst(orderStart)
            orderStart = 0
        }
    }

    /// The readable requests among `stream`'s first `version - 1` events, newest first, as ``judge(_:decoded:)`` kept
    /// them.
    static func requests(of stream: String, before version: UInt64, in store: EventStore) throws -> [LaunchRequest] {
        var list: [LaunchRequest] = []
        for event in try store.readStream(stream, limit: Int(clamping: version - 1)) {
            guard case .requested(let requested) = try EventCodec.decode(event),
                let request = try? Providers.parseLaunch(requested.launchURL, appVersion: requested.appVersion)
            else { continue }
            list.insert(request, at: 0)
        }
        return list
    }

    /// The request recorded at `position` and its payment, when it is a readable request.
    static func request(at position: UInt64, in store: EventStore) throws -> (payment: String, request: LaunchRequest)? {
        guard let event = try store.event(at: position), case .requested(let requested) = try EventCodec.decode(event) else {
            return nil
        }
        return (event.streamID, try Providers.parseLaunch(requested.launchURL, appVersion: requested.appVersion))
    }
}
