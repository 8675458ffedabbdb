import Foundation
import PaylogDomain

/// SumUp merchant app: `sumupmerchant://pay/1.0?amount=…&currency=…&affiliate-key=…`.
///
/// The path stays `1.0`; the app version decides which parameters work. The callback is the caller's
/// `callbacksuccess`/`callbackfail` URL with `smp-*` items inserted before any `#fragment`.
public struct SumUpAdapter: ProviderAdapter {
    /// Creates the adapter.
    public init() {}

    /// ``PaylogDomain/Provider/sumup``.
    public var provider: Provider { .sumup }

    /// `sumupmerchant`.
    public var launchScheme: String { "sumupmerchant" }

    /// The query items that map to dedicated ``PaylogDomain/LaunchRequest`` properties.
    static let mappedLaunchKeys: Set<String> = [
        "amount", "currency", "affiliate-key", "title", "callbacksuccess", "callbackfail", "foreign-tx-id",
    ]

    /// Reads a SumUp launch URL. `amount` is a decimal string in major units (`"12.50"`); it is read
    /// exactly in the URL's currency, and left `nil` when it has more significant decimals than the
    /// currency allows or is not a plain decimal. `+` stays a literal plus.
    public func parseLaunch(_ url: String, appVersion: String?) throws(ProviderError) -> LaunchRequest {
        let parsed = try ParsedURL(url)
        guard parsed.scheme == launchScheme else {
            throw .schemeMismatch(expected: provider, scheme: parsed.rawScheme)
        }
        var notes = parsed.notes + AppVersion.notes(forDeclared: appVersion)
        let host = parsed.host ?? ""
        let version = parsed.path.hasPrefix("/") ? String(parsed.path.dropFirst()) : ""
        if host != "pay" || version != "1.0" { notes.append(.unexpectedEndpoint(host + parsed.path)) }
        let fields = parsed.items.fields(notes: &notes)

        let rawCurrency = fields["currency"]
        let currency = rawCurrency.flatMap { try? CurrencyCode($0) }
        let rawAmount = fields["amount"]
        let amount = rawAmount.flatMap { text in currency.flatMap { try? Money(decimalString: text, currency: $0) } }
        return LaunchRequest(
            provider: provider,
            rawURL: url,
            apiVersion: version.isEmpty ? nil : version,
            appVersion: appVersion,
            amount: amount,
            rawAmount: rawAmount,
            currency: currency,
            rawCurrency: rawCurrency,
            reference: fields["foreign-tx-id"],
            clientID: fields["affiliate-key"],
            successCallbackURL: fields["callbacksuccess"],
            failureCallbackURL: fields["callbackfail"],
            title: fields["title"],
            options: fields.filter { !Self.mappedLaunchKeys.contains($0.key) },
            fields: fields,
            parseNotes: notes
        )
    }

    /// Reads a SumUp callback: `smp-status` `success` is success; `failed` and `invalidstate` are failures
    /// (error code `smp-failure-cause` when present, else the status value); any other value is invalid.
    /// Without `smp-status` (old apps), our `paylog_outcome` marker decides, then the hint, else
    /// `.invalid("")`. A status that contradicts the URL the marker or hint says was opened is noted
    /// (``ParseNote/statusContradictsOpenedURL(status:opened:)``).
    public func parseCallback(_ url: String, hint: CallbackHint?) throws(ProviderError) -> CallbackOutcome {
        callback(url, parsed: try ParsedURL(url), hint: hint)
    }

    /// The SumUp callback `url`, already parsed as a URL (``parseCallback(_:hint:)`` without parsing it again).
    func callback(_ url: String, parsed: ParsedURL, hint: CallbackHint?) -> CallbackOutcome {
        var notes = parsed.notes
        let fields = parsed.items.fields(notes: &notes)

        // Which URL the app opened, as far as our marker or the request's callback URLs tell.
        let opened = parsed.items.outcomeMarker ?? CallbackURL.status(from: hint, for: parsed)
        let status: CallbackStatus
        switch fields["smp-status"] {
        case "success": status = .success
        case "failed", "invalidstate": status = .failure
        case nil: status = opened ?? .invalid("")
        case let raw?: status = .invalid(raw)
        }
        // "success opens callbacksuccess, everything else callbackfail" (contract §3): a status that says the
        // opposite of the URL it arrived on is kept, and noted.
        if let opened, let raw = fields["smp-status"], status == .success || status == .failure, opened != status {
            notes.append(.statusContradictsOpenedURL(status: raw, opened: opened == .success ? "callbacksuccess" : "callbackfail"))
        }
        let errorCode: String?
        switch status {
        case .success: errorCode = nil
        case .failure, .invalid: errorCode = fields["smp-failure-cause"] ?? fields["smp-status"]
        }
        let reference = fields["foreign-tx-id"]
        return CallbackOutcome(
            provider: provider,
            rawURL: url,
            status: status,
            transactionID: fields["smp-tx-code"],
            reference: reference,
            errorCode: errorCode,
            message: fields["smp-message"],
            routingHint: parsed.items.routingHint(reference: reference, notes: &notes),
            fields: fields,
            parseNotes: notes
        )
    }

    /// Builds `sumupmerchant://pay/1.0?…` with `foreign-tx-id` = the spec's reference and both callback URLs
    /// carrying `paylog_payment` and `paylog_outcome`. Values are percent-encoded strictly, so a `+` is sent
    /// as `%2B` and cannot be read as a space.
    ///
    /// Refuses: a missing `affiliate-key`; `foreign-tx-id` on an app below 1.53, longer than 128 characters
    /// or outside printable ASCII (0x20–0x7E); `skip-screen-success` on an app below 1.69; Square-only
    /// fields; a non-positive amount.
    public func buildLaunchURL(for spec: LaunchSpec) throws(ProviderError) -> String {
        try spec.validateCommon(for: provider)
        guard !spec.clientID.isEmpty else { throw .missingField("affiliate-key", provider: provider) }
        if let reference = spec.reference {
            try spec.requireApp("1.53", for: "foreign-tx-id")
            let scalars = reference.unicodeScalars
            guard scalars.count <= 128 else {
                throw .invalidReference(
                    field: "foreign-tx-id", value: reference, reason: "it has \(scalars.count) characters, over 128")
            }
            guard scalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else {
                throw .invalidReference(
                    field: "foreign-tx-id", value: reference, reason: "it contains a character outside 0x20–0x7E")
            }
        }
        if spec.skipScreenSuccess { try spec.requireApp("1.69", for: "skip-screen-success") }

        var items: [(String, String)] = [
            ("amount", spec.amount.decimalString),
            ("currency", spec.amount.currency.code),
            ("affiliate-key", spec.clientID),
        ]
        if let title = spec.title { items.append(("title", title)) }
        if let reference = spec.reference { items.append(("foreign-tx-id", reference)) }
        if let email = spec.receiptEmail { items.append(("receipt-email", email)) }
        if let phone = spec.receiptMobilePhone { items.append(("receipt-mobilephone", phone)) }
        if spec.skipScreenSuccess { items.append(("skip-screen-success", "true")) }
        let base = spec.callbackBaseURL
        let success = try CallbackURL.make(base: base, paymentID: spec.paymentID, outcome: CallbackMarkers.success)
        let failure = try CallbackURL.make(base: base, paymentID: spec.paymentID, outcome: CallbackMarkers.failure)
        items += [("callbacksuccess", success), ("callbackfail", failure)]
        return LaunchURL.make(scheme: launchScheme, host: "pay", path: "/1.0", items: items)
    }
}
