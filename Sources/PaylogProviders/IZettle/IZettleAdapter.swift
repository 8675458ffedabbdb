import Foundation
import PaylogDomain

/// iZettle custom URL scheme: v1.0 `izettle://x-callback-url/payment/1.0?…` (x-callback-url), and the
/// deprecated v3.0 `izettle://api/<operation>?…` for reading old records.
///
/// A callback does not say whether it reports success; see ``CallbackHint`` for the rule.
public struct IZettleAdapter: ProviderAdapter {
    /// Creates the adapter.
    public init() {}

    /// ``PaylogDomain/Provider/izettle``.
    public var provider: Provider { .izettle }

    /// `izettle`.
    public var launchScheme: String { "izettle" }

    /// The query items that map to dedicated ``PaylogDomain/LaunchRequest`` properties.
    static let mappedLaunchKeys: Set<String> = [
        "price", "amount", "currency", "api-key", "x-success", "successURL", "x-failure", "failureURL", "title",
        "reference",
    ]

    /// The error parameters, in order of preference.
    static let errorKeys = ["errorCode", "error", "errorMessage"]

    /// Reads an iZettle launch URL. `price` (v3: `amount`) is read as a decimal string in major units,
    /// exactly. `apiVersion` is the path's version (`"1.0"`), or `"3.0"` for host `api`.
    public func parseLaunch(_ url: String, appVersion: String?) throws(ProviderError) -> LaunchRequest {
        let parsed = try ParsedURL(url)
        guard parsed.scheme == launchScheme else {
            throw .schemeMismatch(expected: provider, scheme: parsed.rawScheme)
        }
        var notes = parsed.notes + AppVersion.notes(forDeclared: appVersion)
        let host = parsed.host ?? ""
        let path = parsed.path
        let apiVersion: String?
        if host == "api" {
            apiVersion = "3.0"
        } else {
            let last = path.split(separator: "/").last.map(String.init) ?? ""
            apiVersion = AppVersion(last) != nil ? last : nil
            if host != "x-callback-url" || path != "/payment/1.0" { notes.append(.unexpectedEndpoint(host + path)) }
        }
        let fields = parsed.items.fields(notes: &notes)

        let rawCurrency = fields["currency"]
        let currency = rawCurrency.flatMap { try? CurrencyCode($0) }
        let rawAmount = fields["price"] ?? fields["amount"]
        let amount = rawAmount.flatMap { text in currency.flatMap { try? Money(decimalString: text, currency: $0) } }
        return LaunchRequest(
            provider: provider,
            rawURL: url,
            apiVersion: apiVersion,
            appVersion: appVersion,
            amount: amount,
            rawAmount: rawAmount,
            currency: currency,
            rawCurrency: rawCurrency,
            reference: fields["reference"],
            clientID: fields["api-key"],
            successCallbackURL: fields["x-success"] ?? fields["successURL"],
            failureCallbackURL: fields["x-failure"] ?? fields["failureURL"],
            title: fields["title"],
            options: fields.filter { !Self.mappedLaunchKeys.contains($0.key) },
            fields: fields,
            parseNotes: notes
        )
    }

    /// Reads an iZettle callback. Status, in order: an `errorCode`, `error` or `errorMessage` item means
    /// failure (its value is the error code, first of those three present); else our `paylog_outcome`
    /// marker; else the hint; else a v3 `referenceNumber` (only its success callback carries one) means success;
    /// else `.invalid("")`. v3's `referenceNumber` is the transaction id.
    public func parseCallback(_ url: String, hint: CallbackHint?) throws(ProviderError) -> CallbackOutcome {
        callback(url, parsed: try ParsedURL(url), hint: hint)
    }

    /// The iZettle callback `url`, already parsed as a URL (``parseCallback(_:hint:)`` without parsing it again).
    func callback(_ url: String, parsed: ParsedURL, hint: CallbackHint?) -> CallbackOutcome {
        var notes = parsed.notes
        let fields = parsed.items.fields(notes: &notes)

        let errorCode = Self.errorKeys.lazy.compactMap { fields[$0] }.first
        let marker = parsed.items.outcomeMarker
        let status: CallbackStatus
        if errorCode != nil {
            if marker == .success { notes.append(.conflictingOutcome) }
            status = .failure
        } else {
            // v3.0's success callback carries `referenceNumber` (contract §4 v3.0 [C]); a failure never does.
            let v3Success: CallbackStatus? = fields["referenceNumber"] != nil ? .success : nil
            status = marker ?? CallbackURL.status(from: hint, for: parsed) ?? v3Success ?? .invalid("")
        }
        let reference = fields["reference"]
        return CallbackOutcome(
            provider: provider,
            rawURL: url,
            status: status,
            transactionID: fields["referenceNumber"],
            reference: reference,
            errorCode: errorCode,
            message: fields["errorMessage"],
            routingHint: parsed.items.routingHint(reference: reference, notes: &notes),
            fields: fields,
            parseNotes: notes
        )
    }

    /// Builds `izettle://x-callback-url/payment/1.0?…` with `reference` = the spec's reference and
    /// `x-success`/`x-failure` carrying `paylog_payment` and `paylog_outcome`.
    ///
    /// `price` is sent as whole major units (`"12"` for 12.00 EUR): the format is unspecified and the
    /// sample accepts integers only, so an amount with a fraction is refused. Also refuses a missing
    /// `api-key`, `title` or `x-source`, SumUp- or Square-only fields, and a non-positive amount.
    public func buildLaunchURL(for spec: LaunchSpec) throws(ProviderError) -> String {
        try spec.validateCommon(for: provider)
        guard !spec.clientID.isEmpty else { throw .missingField("api-key", provider: provider) }
        guard let title = spec.title, !title.isEmpty else { throw .missingField("title", provider: provider) }
        guard !spec.sourceName.isEmpty else { throw .missingField("x-source", provider: provider) }
        guard spec.amount.isWholeMajorUnits else { throw .nonIntegerPrice(spec.amount) }
        var scale: Int64 = 1
        for _ in 0..<spec.amount.currency.minorUnitExponent { scale *= 10 }

        let base = spec.callbackBaseURL
        let success = try CallbackURL.make(base: base, paymentID: spec.paymentID, outcome: CallbackMarkers.success)
        let failure = try CallbackURL.make(base: base, paymentID: spec.paymentID, outcome: CallbackMarkers.failure)
        var items: [(String, String)] = [
            ("x-source", spec.sourceName),
            ("x-success", success),
            ("x-failure", failure),
            ("api-key", spec.clientID),
            ("price", String(spec.amount.minorUnits / scale)),
            ("currency", spec.amount.currency.code),
            ("title", title),
        ]
        if let reference = spec.reference { items.append(("reference", reference)) }
        return LaunchURL.make(scheme: launchScheme, host: "x-callback-url", path: "/payment/1.0", items: items)
    }
}
