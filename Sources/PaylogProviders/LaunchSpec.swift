import PaylogDomain

/// Everything needed to build a provider launch URL for one payment attempt.
///
/// Fields that a provider does not have must stay `nil` (or `false`); the builder refuses a spec that sets
/// them rather than silently dropping them. The payment id is embedded in every callback URL as
/// `paylog_payment=<id>`, and ``reference`` is sent as Square `state`, SumUp `foreign-tx-id` or
/// iZettle `reference`, which the providers echo back.
public struct LaunchSpec: Sendable, Hashable {
    /// The provider to launch.
    public var provider: Provider
    /// The payment this attempt belongs to.
    public var paymentID: PaymentID
    /// The amount to charge; must be positive (and whole major units for iZettle).
    public var amount: Money
    /// The reference token echoed in the callback; `nil` sends none (routing then relies on `paylog_payment`).
    public var reference: String?
    /// The app's callback URL; the builder appends `paylog_payment` (and for SumUp and iZettle
    /// `paylog_outcome`) to its query, keeping any existing query and fragment.
    public var callbackBaseURL: String
    /// The credential: Square `client_id`, SumUp `affiliate-key`, iZettle `api-key`. Required.
    public var clientID: String
    /// SumUp `title` (optional) and iZettle `title` (required). Not a Square field.
    public var title: String?
    /// Square `notes`.
    public var notes: String?
    /// Square API version: "1.0", "1.1", "1.2" or "1.3" (default); `nil` builds a pre-1.0 request.
    public var squareAPIVersion: String?
    /// The provider app version the merchant runs, when known; version-gated fields are checked against it
    /// and allowed when it is `nil`. Not part of the URL.
    public var appVersion: String?
    /// Square `options.supported_tender_types`; `nil` sends `["CREDIT_CARD"]` where options are required
    /// (API 1.0 and later) and nothing for pre-1.0.
    public var tenderTypes: [String]?
    /// Square `options.auto_return`.
    public var autoReturn: Bool?
    /// Square `options.skip_receipt`.
    public var skipReceipt: Bool?
    /// Square `options.clear_default_fees`.
    public var clearDefaultFees: Bool?
    /// Square `location_id` (API 1.3 only).
    public var locationID: String?
    /// Square `merchant_id` (before API 1.3).
    public var merchantID: String?
    /// Square `customer_id` (API 1.2 and later).
    public var customerID: String?
    /// SumUp `skip-screen-success=true` (app 1.69 and later); `false` sends nothing.
    public var skipScreenSuccess: Bool
    /// SumUp `receipt-email` prefill.
    public var receiptEmail: String?
    /// SumUp `receipt-mobilephone` prefill.
    public var receiptMobilePhone: String?
    /// iZettle `x-source`, the calling app's name. Ignored by the other providers.
    public var sourceName: String

    /// Creates a launch spec; only the fields the chosen provider has may be set.
    public init(
        provider: Provider,
        paymentID: PaymentID,
        amount: Money,
        reference: String? = nil,
        callbackBaseURL: String,
        clientID: String,
        title: String? = nil,
        notes: String? = nil,
        squareAPIVersion: String? = "1.3",
        appVersion: String? = nil,
        tenderTypes: [String]? = nil,
        autoReturn: Bool? = nil,
        skipReceipt: Bool? = nil,
        clearDefaultFees: Bool? = nil,
        locationID: String? = nil,
        merchantID: String? = nil,
        customerID: String? = nil,
        skipScreenSuccess: Bool = false,
        receiptEmail: String? = nil,
        receiptMobilePhone: String? = nil,
        sourceName: String = "paylog"
    ) {
        self.provider = provider
        self.paymentID = paymentID
        self.amount = amount
        self.reference = reference
        self.callbackBaseURL = callbackBaseURL
        self.clientID = clientID
        self.title = title
        self.notes = notes
        self.squareAPIVersion = squareAPIVersion
        self.appVersion = appVersion
        self.tenderTypes = tenderTypes
        self.autoReturn = autoReturn
        self.skipReceipt = skipReceipt
        self.clearDefaultFees = clearDefaultFees
        self.locationID = locationID
        self.merchantID = merchantID
        self.customerID = customerID
        self.skipScreenSuccess = skipScreenSuccess
        self.receiptEmail = receiptEmail
        self.receiptMobilePhone = receiptMobilePhone
        self.sourceName = sourceName
    }
}
