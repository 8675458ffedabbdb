/// `Requested`: a launch URL for the payment was built by paylog or observed leaving the shop's app.
public struct Requested: Sendable, Hashable, Codable {
    /// The launch URL exactly as built or observed: the evidence.
    public var launchURL: String
    /// The provider the URL addresses.
    public var provider: Provider
    /// The amount the request asked for, when it could be read.
    public var amount: Money?
    /// The routing reference embedded in the request (Square `state`, SumUp `foreign-tx-id`, iZettle `reference`).
    public var reference: String?
    /// The API version the request claims (Square `version`; the URL path version for SumUp and iZettle).
    public var apiVersion: String?
    /// The provider app version the shop's app declared, when known (SumUp rules depend on it).
    public var appVersion: String?
    /// True when paylog built the URL (`paylog request`); false when it was observed.
    public var builtByPaylog: Bool

    /// A `Requested` event.
    public init(
        launchURL: String, provider: Provider, amount: Money?, reference: String?, apiVersion: String?,
        appVersion: String?, builtByPaylog: Bool
    ) {
        self.launchURL = launchURL
        self.provider = provider
        self.amount = amount
        self.reference = reference
        self.apiVersion = apiVersion
        self.appVersion = appVersion
        self.builtByPaylog = builtByPaylog
    }
}
