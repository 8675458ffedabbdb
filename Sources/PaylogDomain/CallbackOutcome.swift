/// A normalized reading of a provider callback URL, as observed.
///
/// ``rawURL`` is the exact input and ``fields`` holds every observed key; an unknown status or error code
/// is kept as raw text rather than rejected.
public struct CallbackOutcome: Sendable, Hashable, Codable {
    /// The provider the callback was attributed to.
    public var provider: Provider
    /// The URL exactly as observed.
    public var rawURL: String
    /// Success, failure, or the unreadable raw status.
    public var status: CallbackStatus
    /// The provider's transaction id: Square `transaction_id` (pre-1.0 `payment_id`), SumUp `smp-tx-code`,
    /// iZettle v3 `referenceNumber`.
    public var transactionID: String?
    /// Square's `client_transaction_id` (pre-1.0 `offline_payment_id`), the key for offline reconciliation.
    public var clientTransactionID: String?
    /// The echo of the request's reference: Square `state`, SumUp `foreign-tx-id`, iZettle `reference`.
    public var reference: String?
    /// The raw error code: Square `error_code`; SumUp `smp-failure-cause`, else the `smp-status` value of a
    /// failure; iZettle `errorCode`, else `error`, else `errorMessage`. `nil` on success.
    public var errorCode: String?
    /// A human-readable message: SumUp `smp-message`, iZettle `errorMessage`, Square `error_description`.
    public var message: String?
    /// A Square payment taken offline: status ok, a client transaction id and no transaction id.
    /// (Square may also omit `transaction_id` for asynchronous CASH/OTHER tenders; the URL cannot tell.)
    public var isOffline: Bool
    /// How to find the payment this callback belongs to, if anything identifies it.
    public var routingHint: RoutingHint?
    /// Every observed key and its value as text. Square's JSON keys are flattened with dotted paths; the
    /// callback URL's own query items are listed as `query.<name>` for Square and by name otherwise.
    public var fields: [String: String]
    /// Deviations noticed while reading the URL.
    public var parseNotes: [ParseNote]

    /// Creates a callback outcome; parsers fill it in, tests and tools may build one directly.
    public init(
        provider: Provider,
        rawURL: String,
        status: CallbackStatus,
        transactionID: String? = nil,
        clientTransactionID: String? = nil,
        reference: String? = nil,
        errorCode: String? = nil,
        message: String? = nil,
        isOffline: Bool = false,
        routingHint: RoutingHint? = nil,
        fields: [String: String] = [:],
        parseNotes: [ParseNote] = []
    ) {
        self.provider = provider
        self.rawURL = rawURL
        self.status = status
        self.transactionID = transactionID
        self.clientTransactionID = clientTransactionID
        self.reference = reference
        self.errorCode = errorCode
        self.message = message
        self.isOffline = isOffline
        self.routingHint = routingHint
        self.fields = fields
        self.parseNotes = parseNotes
    }
}
