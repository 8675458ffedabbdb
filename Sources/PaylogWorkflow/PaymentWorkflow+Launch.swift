import PaylogDomain
import PaylogProviders
import PaylogStore

extension PaymentWorkflow {
    /// A new routing reference: 128 random bits as 32 lowercase hex digits. It is the Square `state` the web
    /// callback is routed by, so it must be unguessable; it fits every provider's reference limit (≤ 128).
    public static func mintReference() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64, low = generator.next() as UInt64
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return hex(high) + hex(low)
    }

    /// Builds the launch URL for `spec` (minting a reference when it has none and the app takes one), records
    /// `Requested` as built by paylog, and returns the URL. Refuses (``WorkflowError/refusedLaunch(_:)``) a URL that would break the
    /// provider's contract, before anything is recorded.
    ///
    /// A retry is recognised: without a given reference, the payment's earlier references are tried first, and one
    /// whose launch URL, built from this spec at this time, was already recorded is used again, so the retry records
    /// nothing and answers the same URL. (Minting a new one each time made every retry a new `Requested`.) The
    /// reference is chosen again before every attempt to append: of identical requests arriving together, the first
    /// records `Requested` and the others, refused by the expected version, find its reference and record nothing
    /// (choosing it once, before the append, let each of them record a `Requested` with a reference of its own).
    ///
    /// A given reference that already routes to another payment is refused: its callbacks (Square's web callback is
    /// routed by the `state` alone) would go to the payment that took it last, so a client could take over another
    /// payment's callback by naming its reference.
    ///
    /// `retryKey` (an HTTP `Idempotency-Key`, for a request that gives no time): the request is identified by it
    /// instead of its time and URL, so a retry after the first attempt's answer was lost records nothing and answers
    /// the URL and reference that attempt recorded, not a newly minted one.
    public func requestLaunch(
        _ spec: LaunchSpec, observedAt: Timestamp, retryKey: String? = nil
    ) async throws(WorkflowError) -> LaunchOutcome {
        var spec = spec
        if spec.provider == .izettle && spec.title == nil { spec.title = "Payment \(spec.paymentID.rawValue)" }
        if let given = spec.reference, let owner = try? route("ref:\(given)"), owner != spec.paymentID.rawValue {
            throw .refusedLaunch(
                "the reference \(given.prefix(64).debugDescription) already belongs to payment \(owner); a reference "
                    + "routes callbacks, so each payment needs its own (omit it to have one minted)")
        }
        let minted = PaymentWorkflow.takesReference(spec) ? PaymentWorkflow.mintReference() : nil
        var built = (url: "", reference: String?.none)
        let outcome = try await record(
            payment: spec.paymentID.rawValue, observedAt: observedAt, retryKey: retryKey
        ) { payment throws(WorkflowError) in
            // The payment as this attempt read it, whose version the append expects: a request recorded after that
            // read is not in its references, but then the append is refused and the next attempt finds it.
            var attempt = spec
            attempt.reference = spec.reference ?? recordedReference(for: spec, observedAt: observedAt, in: payment) ?? minted
            let url: String
            let request: LaunchRequest
            do {
                url = try Providers.buildLaunchURL(for: attempt)
                request = try Providers.parseLaunch(url, appVersion: attempt.appVersion)
            } catch {
                throw .refusedLaunch("\(error)")
            }
            built = (url, attempt.reference)
            // With a retry key, the URL (its minted reference new on every attempt) is not the request's identity.
            return (.request(request, builtByPaylog: true), retryKey == nil ? url : PaymentWorkflow.builtLaunchEvidence)
        }
        if let retryKey, outcome.wasAlreadyRecorded {
            // The attempt whose answer was lost recorded its own URL: answer that one.
            let identity = PaymentWorkflow.identity(
                spec.paymentID.rawValue, kind: "request", observedAt: nil,
                evidence: PaymentWorkflow.retried(PaymentWorkflow.builtLaunchEvidence, key: retryKey))
            if case .requested(let recorded)? = try? store.event(id: PaymentWorkflow.eventID(identity, index: 0))
                .flatMap({ try EventCodec.decode($0) })
            {
                built = (recorded.launchURL, recorded.reference)
            }
        }
        return LaunchOutcome(outcome: outcome, launchURL: built.url, reference: built.reference)
    }

    /// What identifies a launch URL paylog builds for a request with a retry key, in place of the URL (whose minted
    /// reference is new on every attempt).
    static let builtLaunchEvidence = "a launch URL built by paylog"

    /// Whether a reference may be minted for `spec`: not for a SumUp app that declares a version below 1.53, which
    /// does not know `foreign-tx-id` (contract §3; the field is optional). Its callbacks come back on the
    /// callback URLs paylog marks with the payment id.
    static func takesReference(_ spec: LaunchSpec) -> Bool {
        guard spec.provider == .sumup, let declared = spec.appVersion.flatMap(AppVersion.init),
            let minimum = AppVersion("1.53")
        else { return true }
        return declared >= minimum
    }

    /// The reference of `payment` (payment `spec.paymentID` as read) whose launch URL, built from `spec` (its
    /// defaults filled in) and recorded at `observedAt`, the log already holds (the same request, sent again); nil
    /// when there is none, or it cannot be told.
    func recordedReference(for spec: LaunchSpec, observedAt: Timestamp, in payment: Payment?) -> String? {
        guard let payment else { return nil }
        for reference in payment.references.reversed() {
            var candidate = spec
            candidate.reference = reference
            guard let url = try? Providers.buildLaunchURL(for: candidate) else { continue }
            let digest = PaymentWorkflow.identity(spec.paymentID.rawValue, kind: "request", observedAt: observedAt, evidence: url)
            if (try? store.event(id: PaymentWorkflow.eventID(digest, index: 0))) != nil { return reference }
        }
        return nil
    }
}
