import PaylogDomain

/// Reads and builds one provider's app-switch URLs. Adapters are pure values: no storage, no network.
public protocol ProviderAdapter: Sendable {
    /// The provider this adapter speaks for.
    var provider: Provider { get }

    /// The launch URL scheme, lowercased (e.g. `sumupmerchant`).
    var launchScheme: String { get }

    /// Reads a launch URL as observed.
    ///
    /// - Parameters:
    ///   - url: The exact launch URL.
    ///   - appVersion: The provider app version the caller declared, recorded as is.
    /// - Throws: ``ProviderError`` only when the URL cannot be understood at all; contract breaches are
    ///   recorded, not rejected.
    func parseLaunch(_ url: String, appVersion: String?) throws(ProviderError) -> LaunchRequest

    /// Reads a callback URL as observed.
    ///
    /// - Parameters:
    ///   - url: The exact callback URL.
    ///   - hint: Outside knowledge about which callback URL was opened (see ``CallbackHint``).
    func parseCallback(_ url: String, hint: CallbackHint?) throws(ProviderError) -> CallbackOutcome

    /// Builds the launch URL for `spec`, refusing any spec that breaks the provider's contract.
    func buildLaunchURL(for spec: LaunchSpec) throws(ProviderError) -> String
}
