/// A normalized reading of a provider launch URL, as observed.
///
/// Nothing is rewritten: ``rawURL`` is the exact input, ``fields`` holds every observed key, and a value
/// that cannot be understood (an unreadable amount, an unknown currency form) is `nil` in its typed
/// property but still present in ``fields``. Judging the request against the contract is a separate step.
public struct LaunchRequest: Sendable, Hashable, Codable {
    /// The provider whose scheme the URL uses.
    public var provider: Provider
    /// The URL exactly as observed.
    public var rawURL: String
    /// The request's API version: Square's JSON `version` (`nil` for a pre-1.0 request without one);
    /// SumUp's and iZettle's path version (`"1.0"`), or `"3.0"` for iZettle's `izettle://api/…` form.
    public var apiVersion: String?
    /// The provider app version the caller declared when recording the launch (not part of the URL).
    public var appVersion: String?
    /// The amount, when it could be read exactly in a valid currency.
    public var amount: Money?
    /// The amount text as observed: Square `amount_money.amount`, SumUp `amount`, iZettle `price`/`amount`.
    public var rawAmount: String?
    /// The currency, when its code is well-formed.
    public var currency: CurrencyCode?
    /// The currency text as observed.
    public var rawCurrency: String?
    /// The caller's reference, echoed in the callback: Square `state`, SumUp `foreign-tx-id`,
    /// iZettle `reference`.
    public var reference: String?
    /// The caller's credential: Square `client_id`, SumUp `affiliate-key`, iZettle `api-key`.
    public var clientID: String?
    /// Square's single `callback_url`.
    public var callbackURL: String?
    /// The URL opened on success: SumUp `callbacksuccess`, iZettle `x-success` (v3 `successURL`).
    public var successCallbackURL: String?
    /// The URL opened on failure: SumUp `callbackfail`, iZettle `x-failure` (v3 `failureURL`).
    public var failureCallbackURL: String?
    /// The title shown to the merchant (SumUp, iZettle).
    public var title: String?
    /// Square's `notes`.
    public var notes: String?
    /// Square's `location_id` (API 1.3).
    public var locationID: String?
    /// Square's `merchant_id` (before API 1.3).
    public var merchantID: String?
    /// Square's `customer_id` (API 1.2 and later).
    public var customerID: String?
    /// Square's `options.supported_tender_types`, in order.
    public var tenderTypes: [String]?
    /// Remaining provider options as text: Square's other `options.*` keys (prefix stripped, booleans as
    /// `"true"`/`"false"`); for SumUp and iZettle every query item without a dedicated property above.
    public var options: [String: String]
    /// Every observed key and its value as text; Square JSON is flattened with dotted paths
    /// (`amount_money.amount`) and arrays are comma-joined.
    public var fields: [String: String]
    /// Deviations noticed while reading the URL.
    public var parseNotes: [ParseNote]

    /// Creates a launch request; parsers fill it in, tests and tools may build one directly.
    public init(
        provider: Provider,
        rawURL: String,
        apiVersion: String? = nil,
        appVersion: String? = nil,
        amount: Money? = nil,
        rawAmount: String? = nil,
        currency: CurrencyCode? = nil,
        rawCurrency: String? = nil,
        reference: String? = nil,
        clientID: String? = nil,
        callbackURL: String? = nil,
        successCallbackURL: String? = nil,
        failureCallbackURL: String? = nil,
        title: String? = nil,
        notes: String? = nil,
        locationID: String? = nil,
        merchantID: String? = nil,
        customerID: String? = nil,
        tenderTypes: [String]? = nil,
        options: [String: String] = [:],
        fields: [String: String] = [:],
        parseNotes: [ParseNote] = []
    ) {
        self.provider = provider
        self.rawURL = rawURL
        self.apiVersion = apiVersion
        self.appVersion = appVersion
        self.amount = amount
        self.rawAmount = rawAmount
        self.currency = currency
        self.rawCurrency = rawCurrency
        self.reference = reference
        self.clientID = clientID
        self.callbackURL = callbackURL
        self.successCallbackURL = successCallbackURL
        self.failureCallbackURL = failureCallbackURL
        self.title = title
        self.notes = notes
        self.locationID = locationID
        self.merchantID = merchantID
        self.customerID = customerID
        self.tenderTypes = tenderTypes
        self.options = options
        self.fields = fields
        self.parseNotes = parseNotes
    }
}
