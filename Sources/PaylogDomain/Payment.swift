/// A payment as its events leave it: the state the decide/evolve state machine works on, and what
/// `paylog status` shows. Built only by applying events in order (``apply(_:)``).
public struct Payment: Sendable, Hashable, Codable {
    /// The payment (stream) id.
    public var id: String
    /// Where it stands.
    public var status: PaymentStatus
    /// The provider of the latest request.
    public var provider: Provider
    /// The amount of the latest request, when readable.
    public var amount: Money?
    /// Every routing reference its requests carried, oldest first.
    public var references: [String]
    /// Every provider its requests were made with: a retry with another provider keeps the earlier attempts'
    /// callbacks and report lines recordable (they are late evidence, often of a second charge), though
    /// ``provider`` names only the latest.
    public var requestedProviders = ProviderSet()
    /// The API version the latest request claimed.
    public var apiVersion: String?
    /// The app version the latest request declared.
    public var appVersion: String?
    /// The provider's transaction id, from a callback or the report.
    public var transactionID: String?
    /// Square's `client_transaction_id`.
    public var clientTransactionID: String?
    /// The provider's error code of the latest failure of the attempt the status describes: the attempt in progress,
    /// and once the payment has succeeded, the success it stands on. A new attempt (a request before any success)
    /// and the first success clear it; a callback that fails nothing of that attempt (one answering a replaced
    /// attempt, or a failure after the success that does not contradict it) leaves it as it was.
    public var errorCode: String?
    /// The reason of the latest failure of the attempt the status describes (a new attempt clears it, as
    /// ``errorCode``).
    public var failureReason: String?
    /// The number of events applied: the stream version.
    public var version: UInt64
    /// The fingerprint (SHA-256) of every distinct recorded callback's raw URL, in order: how an identical callback is
    /// recognised as delivered again (a redelivery adds none). The URLs themselves are in the log
    /// (``CallbackFingerprint`` says why).
    public var callbackFingerprints: [CallbackFingerprint]
    /// The first report line recorded for the payment (``ReportedCharge``), and every later one: how the same report
    /// row seen again is recognised (recorded once) while another amount or transaction is recorded. Two values,
    /// not one array, so that the usual payment with one line costs no allocation (the replay folds a million).
    public var firstReportedCharge: ReportedCharge?
    /// The report lines recorded after ``firstReportedCharge``, in order, and the lines that report no charge (a
    /// refund, a reversal: ``Reconciled/reportsCharge``), which may come before any first charge.
    public var laterReportedCharges: [ReportedCharge] = []
    /// The first charge the payment's success callbacks reported: its client transaction id, else its transaction
    /// id. A success reporting another sets ``hadMultipleCharges``.
    public var firstCharge: String?
    /// Success callbacks reported more than one charge (another than ``firstCharge``), or report lines more than one
    /// provider transaction id: the customer may have been charged more than once (a retry that succeeded after the
    /// first attempt did too).
    public var hadMultipleCharges: Bool = false
    /// A report line reconciled the payment while it stood failed, and no request or success callback came since: a
    /// success callback now is as late as one recorded before the report line would have been.
    public var reconciledWhileFailed: Bool = false
    /// When the failure that set ``reconciledWhileFailed`` was observed (µs), when it was a failure observed before
    /// the report line that paid (``Failed/observedBeforeSuccess``): a success callback observed before that failure
    /// would have come first, had the two been recorded in the order they were observed, and would have made the
    /// failure a refused one, so it is not late. Nil otherwise: a failure recorded in its order is judged in the order
    /// of recording (see ``Payment/decide(_:for:id:at:)``). Set from the envelope.
    public var failedBeforeSuccessAtMicroseconds: Int64?
    /// The status of the attempt in progress's latest callback that was a success or a failure (nil since its
    /// request; a callback marked ``CallbackReceived/answersEarlierAttempt`` is not its).
    public var lastCallbackSucceeded: Bool?
    /// When an offline payment expires unreconciled (µs since the epoch).
    public var offlineExpiresAtMicroseconds: Int64?
    /// A callback arrived after the payment had failed.
    public var hadLateCallback: Bool
    /// Callbacks contradicted each other.
    public var hadContradictingCallbacks: Bool
    /// The report's amount differed from the request's.
    public var hadAmountMismatch: Bool
    /// A new request arrived after the payment had succeeded.
    public var hadRequestAfterSuccess: Bool
    /// The shop's app reported switching to the provider's app (funnel step 2).
    public var sawAppSwitch: Bool = false
    /// Any callback came back (funnel step 3).
    public var sawCallback: Bool = false
    /// A successful callback came back at some point (funnel step 4), even if later contradicted.
    public var sawSuccess: Bool = false
    /// The payment was offline at some point (even if later reconciled or expired).
    public var wasOffline: Bool = false
    /// When the first callback was observed (µs); set from the envelope like ``firstRequestedAtMicroseconds``.
    public var firstCallbackAtMicroseconds: Int64?
    /// When the payment went offline (µs); set from the envelope.
    public var offlineAtMicroseconds: Int64?
    /// When the payment was first reconciled (µs); set from the envelope.
    public var reconciledAtMicroseconds: Int64?
    /// When the earliest evidence that the payment was paid was observed (µs): a success callback or a report line,
    /// whatever order they were recorded in; set from the envelope. A `paylog fail` observed before it is recorded as
    /// a failure the success came after (``Failed/observedBeforeSuccess``) rather than refused.
    public var firstSuccessAtMicroseconds: Int64?
    /// The attempts that failed while each was in progress (a `Failed` recorded while it was the latest request):
    /// bit *i* for ``references``[*i*], the attempts from the 64th on sharing bit 63. A success answering such an
    /// attempt after a retry replaced it is late, whatever attempt is in progress then.
    public var failedAttempts: UInt64 = 0
    /// The providers of the attempts that failed while each was in progress (as ``failedAttempts``, by provider): a
    /// success echoing no reference from such a provider, answering its attempt after a retry with another provider
    /// replaced it, is late (a Square request need not carry a `state`, so its attempt may have no reference).
    public var failedProviders = ProviderSet()
    /// When the first request was observed (µs since the epoch), when known: the earliest observed, whatever order the
    /// requests were recorded in. Set by whoever replays the envelope (the status view), since events carry their
    /// times in the envelope, not the payload.
    public var firstRequestedAtMicroseconds: Int64?

    /// The state before any event: only ``apply(_:)`` of a `Requested` event makes it meaningful.
    public init(id: String, provider: Provider) {
        self.id = id
        self.status = .requested
        self.provider = provider
        self.references = []
        self.version = 0
        self.callbackFingerprints = []
        self.hadLateCallback = false
        self.hadContradictingCallbacks = false
        self.hadAmountMismatch = false
        self.hadRequestAfterSuccess = false
    }

    /// Whether `provider` is one this payment was requested with (its own provider, for a stream that began
    /// without a request).
    public func wasRequested(with provider: Provider) -> Bool {
        requestedProviders.isEmpty ? provider == self.provider : requestedProviders.contains(provider)
    }

    /// True when a report line reporting `charge` is recorded.
    public func hasRecorded(_ charge: ReportedCharge) -> Bool {
        firstReportedCharge == charge || laterReportedCharges.contains(charge)
    }

    /// The bit of ``failedAttempts`` for the attempt whose request carried `reference`; nil for a reference no
    /// request of this payment carried.
    public func attemptBit(_ reference: String) -> UInt64? {
        references.firstIndex(of: reference).map { 1 << UInt64(min($0, 63)) }
    }

    /// True for completed, offline and reconciled payments.
    public var hasSucceeded: Bool {
        switch status {
        case .completed, .offline, .reconciled: true
        default: false
        }
    }
}
