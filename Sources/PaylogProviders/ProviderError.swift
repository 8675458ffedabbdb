import PaylogDomain

/// An error from reading or building a provider URL.
///
/// Reading fails only for input that cannot be understood at all; building refuses any URL that would
/// break a confirmed rule of the provider's contract. Every description names the field, says what is
/// wrong and what to do.
public enum ProviderError: Error, Sendable, Hashable, CustomStringConvertible {
    // MARK: Reading

    /// The text is not a URL with a scheme.
    case notAURL(String)
    /// The launch URL's scheme belongs to no known provider.
    case unknownLaunchScheme(String)
    /// The URL was given to the adapter of another provider.
    case schemeMismatch(expected: Provider, scheme: String)
    /// A Square URL has no `data` query item.
    case missingSquareData
    /// A Square URL's `data` value is not a JSON object after percent-decoding.
    case undecodableSquareData(String)
    /// A callback carries no Square `data` JSON and no SumUp `smp-` item, so its provider is unknown.
    case unattributableCallback(String)

    // MARK: Building

    /// A spec for one provider was given to another provider's adapter.
    case wrongAdapter(spec: Provider, adapter: Provider)
    /// A field the provider requires is missing or empty.
    case missingField(String, provider: Provider)
    /// The spec sets a field the provider does not have.
    case unsupportedField(String, provider: Provider)
    /// The amount is zero or negative.
    case nonPositiveAmount(Money)
    /// iZettle's `price` must be a whole number of major units.
    case nonIntegerPrice(Money)
    /// The Square API version is not one of pre-1.0 (`nil`), 1.0, 1.1, 1.2, 1.3.
    case unknownSquareAPIVersion(String)
    /// A Square field does not exist in the requested API version.
    case fieldNotInAPIVersion(String, version: String?, availableIn: String)
    /// A tender type is not allowed in the requested Square API version.
    case tenderTypeNotAllowed(String, version: String?)
    /// The declared app version is older than the first one supporting the field.
    case requiresNewerApp(field: String, minimum: String, declared: String)
    /// The declared Square app version is older than the first one that understands the Square API version.
    case apiVersionRequiresNewerApp(version: String, minimum: String, declared: String)
    /// The declared app version is not dotted numbers.
    case invalidAppVersion(String)
    /// A reference value breaks the field's format rules.
    case invalidReference(field: String, value: String, reason: String)
    /// The callback base URL is not a valid absolute URL.
    case invalidCallbackBaseURL(String)

    /// Where a caller sets or leaves out the launch field `field`: the `paylog request` option and the HTTP API's
    /// member where there is one, else the ``LaunchSpec`` property.
    private static func whereToSet(_ field: String) -> String {
        let options: [String: (cli: String, http: String)] = [
            "client_id": ("--client-id", "client_id"), "api-key": ("--client-id", "client_id"),
            "affiliate-key": ("--client-id", "client_id"), "title": ("--title", "title"), "notes": ("--notes", "notes"),
            "location_id": ("--location-id", "location_id"), "foreign-tx-id": ("--reference", "reference"),
            "state": ("--reference", "reference"), "reference": ("--reference", "reference"),
            "skip-screen-success": ("--skip-screen-success", "skip_screen_success"),
        ]
        guard let option = options[field] else { return "the LaunchSpec's \(field) (no CLI option sets it)" }
        return "\(option.cli), the HTTP API's \(option.http), or the LaunchSpec"
    }

    /// A message saying what went wrong and what to do.
    public var description: String {
        switch self {
        case .notAURL(let text):
            return "\(text.debugDescription.prefix(200)) is not a URL with a scheme; "
                + "pass the exact URL string the app was opened with"
        case .unknownLaunchScheme(let scheme):
            return "launch URL scheme \(scheme.debugDescription) belongs to no known provider; expected "
                + "square-commerce-v1, sumupmerchant or izettle — check that this is a provider launch URL"
        case .schemeMismatch(let expected, let scheme):
            return "scheme \(scheme.debugDescription) is not a \(expected.rawValue) launch scheme; "
                + "use Providers.parseLaunch to pick the adapter from the scheme"
        case .missingSquareData:
            return "the Square URL has no `data` query item; Square carries its JSON in `data=<percent-encoded JSON>` "
                + "— record the full URL including its query"
        case .undecodableSquareData(let reason):
            return "the Square `data` value is not a JSON object after percent-decoding (\(reason)); "
                + "check that the whole URL was captured and that the JSON was percent-encoded"
        case .unattributableCallback(let text):
            return "cannot tell which provider sent callback \(text.debugDescription.prefix(200)): it has no Square "
                + "`data` JSON with `status` and no SumUp `smp-` item; pass `provider:` (iZettle callbacks always need it)"
        case .wrongAdapter(let spec, let adapter):
            return "the spec is for \(spec.rawValue) but was given to the \(adapter.rawValue) adapter; "
                + "use Providers.buildLaunchURL(for:) or the matching adapter"
        case .missingField(let field, let provider):
            return "`\(field)` is required by \(provider.rawValue) but is missing or empty; set it "
                + Self.whereToSet(field)
        case .unsupportedField(let field, let provider):
            return "\(provider.rawValue) has no `\(field)` parameter; leave it out of the request "
                + "(\(Self.whereToSet(field)))"
        case .nonPositiveAmount(let money):
            return "`amount` \(money) is not positive; a launch charges money, so use an amount above zero"
        case .nonIntegerPrice(let money):
            return "iZettle `price` \(money) has a fraction; the documented sample accepts whole numbers only, "
                + "so charge a whole amount of \(money.currency.code) or use another provider"
        case .unknownSquareAPIVersion(let version):
            return "Square API version \(version.debugDescription) is unknown (no 1.4 exists); use \"1.0\", \"1.1\", "
                + "\"1.2\" or \"1.3\" (--api-version, the HTTP API's api_version), or give none for a request made before "
                + "API 1.0"
        case .fieldNotInAPIVersion(let field, let version, let available):
            return "Square `\(field)` does not exist in API version \(version ?? "pre-1.0"); it is available in "
                + "\(available) — change the API version or drop the field"
        case .tenderTypeNotAllowed(let tender, let version):
            return "tender type \(tender.debugDescription) is not allowed in `options.supported_tender_types` for "
                + "Square API version \(version ?? "pre-1.0"); pick a newer version or remove the tender type"
        case .requiresNewerApp(let field, let minimum, let declared):
            return "`\(field)` needs app version \(minimum) or later but the declared app version is \(declared); "
                + "leave it out (\(Self.whereToSet(field))) or have the merchant update the app"
        case .apiVersionRequiresNewerApp(let version, let minimum, let declared):
            return "Square API version \(version) needs Square app \(minimum) or later but the declared app version "
                + "is \(declared); choose a lower API version (--api-version, the HTTP API's api_version) that app "
                + "understands, or have the merchant update the app"
        case .invalidAppVersion(let text):
            return "declared app version \(text.debugDescription) is not dotted numbers such as \"1.69\"; "
                + "give the version exactly as the app reports it, or none when it is not known"
        case .invalidReference(let field, let value, let reason):
            return "`\(field)` value \(value.debugDescription.prefix(200)) is invalid: \(reason); "
                + "mint a short printable-ASCII reference (at most 128 characters)"
        case .invalidCallbackBaseURL(let text):
            return "callback base URL \(text.debugDescription.prefix(200)) is not a valid absolute URL; use the app's "
                + "registered scheme, e.g. \"myshop://paylog/callback\", with any special characters percent-encoded"
        }
    }
}
