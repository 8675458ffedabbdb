import PaylogDomain

/// Entry points that pick the provider adapter for a URL or spec.
public enum Providers {
    /// The adapters of all providers, in ``PaylogDomain/Provider`` order.
    public static let all: [any ProviderAdapter] = Provider.allCases.map(adapter(for:))

    /// The adapter for `provider`.
    public static func adapter(for provider: Provider) -> any ProviderAdapter {
        switch provider {
        case .square: return SquareAdapter()
        case .sumup: return SumUpAdapter()
        case .izettle: return IZettleAdapter()
        }
    }

    /// The provider whose launch scheme `url` uses (case-insensitive).
    ///
    /// - Throws: ``ProviderError/notAURL(_:)`` or ``ProviderError/unknownLaunchScheme(_:)``.
    public static func provider(ofLaunchURL url: String) throws(ProviderError) -> Provider {
        let parsed = try ParsedURL(url)
        guard let adapter = all.first(where: { $0.launchScheme == parsed.scheme }) else {
            throw .unknownLaunchScheme(parsed.rawScheme)
        }
        return adapter.provider
    }

    /// Reads a launch URL with the adapter its scheme selects.
    public static func parseLaunch(_ url: String, appVersion: String? = nil) throws(ProviderError) -> LaunchRequest {
        // Every adapter reads the URL itself first and checks its scheme, so a URL beginning with an adapter's
        // scheme goes straight to it: one URL parse instead of two (a third of reading a launch URL). Any other
        // URL is read here, for the error naming its unknown scheme, or saying it is not a URL.
        if let adapter = all.first(where: { hasScheme(url, $0.launchScheme) }) {
            return try adapter.parseLaunch(url, appVersion: appVersion)
        }
        return try adapter(for: provider(ofLaunchURL: url)).parseLaunch(url, appVersion: appVersion)
    }

    /// Whether `url` begins with `scheme` (lowercase ASCII, matched without regard to case) and a colon.
    static func hasScheme(_ url: String, _ scheme: String) -> Bool {
        var characters = url.utf8.makeIterator()
        for expected in scheme.utf8 {
            guard let byte = characters.next() else { return false }
            // ASCII letters differ from their capitals in bit 5 only; a scheme's other characters are not letters.
            let lowered = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            guard lowered == expected else { return false }
        }
        return characters.next() == UInt8(ascii: ":")
    }

    /// The provider a callback evidently comes from: Square when a `data` item holds a JSON object with
    /// `status`, SumUp when any query item starts with `smp-`, otherwise `nil` (iZettle cannot be told
    /// from the URL).
    ///
    /// - Throws: ``ProviderError/notAURL(_:)``.
    public static func detectCallbackProvider(_ url: String) throws(ProviderError) -> Provider? {
        let parsed = try ParsedURL(url)
        if let data = try? SquareData(parsed), data.object["status"] != nil { return .square }
        if parsed.items.contains(where: { $0.name.hasPrefix("smp-") }) { return .sumup }
        return nil
    }

    /// Reads a callback as the provider it evidently comes from (see ``detectCallbackProvider(_:)``), reading the
    /// URL and Square's `data` once for both; nil when nothing in the URL names the provider. Gives exactly what
    /// ``detectCallbackProvider(_:)`` followed by ``parseCallback(_:provider:hint:)`` gives, at half the work for
    /// Square (the JSON was decoded twice), which is on the writer's path in `paylog ingest`.
    ///
    /// - Throws: what those two throw.
    public static func detectAndParseCallback(_ url: String) throws(ProviderError) -> CallbackOutcome? {
        detect(url, parsed: try ParsedURL(url))
    }

    /// ``detectAndParseCallback(_:)`` of a URL already parsed.
    static func detect(_ url: String, parsed: ParsedURL) -> CallbackOutcome? {
        if let data = try? SquareData(parsed), data.object["status"] != nil {
            return SquareAdapter().callback(url, parsed: parsed, data: data)
        }
        if parsed.items.contains(where: { $0.name.hasPrefix("smp-") }) {
            return SumUpAdapter().callback(url, parsed: parsed, hint: nil)
        }
        return nil
    }

    /// A callback read ahead of routing, from one parse of the URL: as the provider the URL names
    /// (``detectAndParseCallback(_:)``), and, when it names none, as iZettle's (``parseCallback(_:provider:hint:)``
    /// with `.izettle` and no hint) and its `paylog_payment` marker (``queryValue(_:in:)``) — a URL without
    /// Square's `data` or SumUp's `smp-` parameters is in practice an iZettle callback, but only its payment's
    /// provider can say so, and the marker names that payment.
    ///
    /// - Throws: ``ProviderError/notAURL(_:)``, as ``detectAndParseCallback(_:)``.
    public static func readCallbackAhead(
        _ url: String
    ) throws(ProviderError) -> (named: CallbackOutcome?, asIZettle: CallbackOutcome?, marker: String?) {
        let parsed = try ParsedURL(url)
        if let named = detect(url, parsed: parsed) { return (named, nil, nil) }
        let marker = parsed.items.first(named: CallbackMarkers.paymentID)
        return (nil, IZettleAdapter().callback(url, parsed: parsed, hint: nil), marker)
    }

    /// The percent-decoded value of the first query item called `name` in `url` (an item without `=` has the
    /// empty value), read as every adapter reads URLs; nil when there is no such item or `url` is not a URL.
    public static func queryValue(_ name: String, in url: String) -> String? {
        (try? ParsedURL(url))?.items.first(named: name)
    }

    /// Reads a callback URL.
    ///
    /// - Parameters:
    ///   - url: The exact callback URL (its scheme is the shop's own, so it does not name the provider).
    ///   - provider: The provider, when known; required for iZettle. When `nil` it is detected as in
    ///     ``detectCallbackProvider(_:)``.
    ///   - hint: Outside knowledge about which callback URL was opened (see ``CallbackHint``).
    /// - Throws: ``ProviderError/unattributableCallback(_:)`` when `provider` is `nil` and nothing identifies it.
    public static func parseCallback(
        _ url: String, provider: Provider?, hint: CallbackHint? = nil
    ) throws(ProviderError) -> CallbackOutcome {
        var chosen = provider
        if chosen == nil { chosen = try detectCallbackProvider(url) }
        guard let chosen else { throw .unattributableCallback(url) }
        return try adapter(for: chosen).parseCallback(url, hint: hint)
    }

    /// Builds the launch URL for `spec` with its provider's adapter.
    public static func buildLaunchURL(for spec: LaunchSpec) throws(ProviderError) -> String {
        try adapter(for: spec.provider).buildLaunchURL(for: spec)
    }
}
