import Foundation
import PaylogDomain

/// Square Point of Sale API (iOS app switch): `square-commerce-v1://payment/create?data=<JSON>`.
///
/// Launch and callback both carry a percent-encoded JSON object in `data`; the callback is
/// `<callback_url>?data=<JSON>` where `callback_url` may have its own query.
public struct SquareAdapter: ProviderAdapter {
    /// Creates the adapter.
    public init() {}

    /// ``PaylogDomain/Provider/square``.
    public var provider: Provider { .square }

    /// `square-commerce-v1`.
    public var launchScheme: String { "square-commerce-v1" }

    /// Reads a Square launch URL.
    ///
    /// `amount_money.amount` may be a JSON integer or, as in the doc's JS sample, a string of digits
    /// (noted as ``PaylogDomain/ParseNote/amountSentAsString``); a whole number written otherwise (`500.0`,
    /// `5e2`) is read as that integer and noted (``PaylogDomain/ParseNote/amountNotIntegerLiteral(_:)``); anything
    /// else leaves ``LaunchRequest/amount``
    /// `nil`. A missing `version` means a pre-1.0 request (`apiVersion == nil`); a `version` that is not a string is
    /// taken as written (`1.0`, not the 1 a JSON reader makes of it) and noted. A `null` member reads as absent.
    ///
    /// - Throws: ``ProviderError`` when the text is not a URL, the scheme is not Square's, or `data` is
    ///   missing or not a JSON object.
    public func parseLaunch(_ url: String, appVersion: String?) throws(ProviderError) -> LaunchRequest {
        let parsed = try ParsedURL(url)
        guard parsed.scheme == launchScheme else {
            throw .schemeMismatch(expected: provider, scheme: parsed.rawScheme)
        }
        let data = try SquareData(parsed)
        var notes = parsed.notes + data.notes + AppVersion.notes(forDeclared: appVersion)
        let endpoint = (parsed.host ?? "") + parsed.path
        if endpoint != "payment/create" { notes.append(.unexpectedEndpoint(endpoint)) }
        let fields = data.fields(notes: &notes)

        switch data.object["version"] {
        case .string?, .null?, nil: break
        case let other?: notes.append(.versionNotString(data.rawMembers["version"] ?? other.text))
        }
        for key in ["clear_default_fees", "auto_return"] {
            switch data.object["options"]?[key] {
            case .bool?, .null?, nil: break
            case let other?: notes.append(.optionNotBoolean("options." + key, text: other.jsonText))
            }
        }
        let minorUnits: Int64?
        switch data.object["amount_money"]?["amount"] {
        case .integer(let value)?:
            minorUnits = value
            if let literal = data.numberLiterals["amount_money.amount"] { notes.append(.amountNotIntegerLiteral(literal)) }
        case .string(let text)?:
            notes.append(.amountSentAsString)
            minorUnits = Self.integer(from: text)
        default:
            minorUnits = nil
        }
        let rawCurrency = fields["amount_money.currency_code"]
        let currency = rawCurrency.flatMap { try? CurrencyCode($0) }
        let amount = minorUnits.flatMap { units in currency.map { Money(minorUnits: units, currency: $0) } }

        let tenderTypes: [String]?
        switch data.object["options"]?["supported_tender_types"] {
        case .array(let values)?: tenderTypes = values.map(\.text)
        case let value?:
            notes.append(.tenderTypesNotArray(value.jsonText))
            tenderTypes = [value.text]
        case nil: tenderTypes = nil
        }
        var options: [String: String] = [:]
        for (key, value) in fields where key.hasPrefix("options.") && key != "options.supported_tender_types" {
            options[String(key.dropFirst("options.".count))] = value
        }

        return LaunchRequest(
            provider: provider,
            rawURL: url,
            apiVersion: fields["version"],
            appVersion: appVersion,
            amount: amount,
            rawAmount: fields["amount_money.amount"],
            currency: currency,
            rawCurrency: rawCurrency,
            reference: fields["state"],
            clientID: fields["client_id"],
            callbackURL: fields["callback_url"],
            notes: fields["notes"],
            locationID: fields["location_id"],
            merchantID: fields["merchant_id"],
            customerID: fields["customer_id"],
            tenderTypes: tenderTypes,
            options: options,
            fields: fields,
            parseNotes: notes
        )
    }

    /// Reads a Square callback: `status` `ok` is success, `error` failure, anything else invalid.
    ///
    /// A member sent as JSON `null` reads as absent, and an id (`transaction_id`, `client_transaction_id` and their
    /// pre-1.0 stand-ins) sent as an empty string as no id; the raw URL keeps what was sent.
    /// `error_code` is reported only for non-ok statuses (SDK samples carry `"0"` beside `ok`; it stays in
    /// ``CallbackOutcome/fields``). Pre-1.0 `payment_id`/`offline_payment_id` stand in for
    /// `transaction_id`/`client_transaction_id`. The status is always in the JSON; a `.launch` hint tells only
    /// whether a success without `transaction_id` is an offline card payment: it is, unless the request allowed
    /// no card tender (`CASH`, `OTHER` only), where the id may be absent because the payment is asynchronous
    /// (contract §1b [C]).
    public func parseCallback(_ url: String, hint: CallbackHint?) throws(ProviderError) -> CallbackOutcome {
        let parsed = try ParsedURL(url)
        return callback(url, parsed: parsed, data: try SquareData(parsed), hint: hint)
    }

    /// The tender types paid by card, which Square's offline mode takes (the others are cash, other, PayPay).
    static let cardTenderTypes: Set<String> = ["CREDIT_CARD", "CARD_ON_FILE", "SQUARE_GIFT_CARD"]

    /// The callback `url`, already parsed as a URL and its `data` read.
    func callback(_ url: String, parsed: ParsedURL, data: SquareData, hint: CallbackHint? = nil) -> CallbackOutcome {
        var notes = parsed.notes + data.notes
        let fields = data.fields(notes: &notes)

        let status: CallbackStatus
        switch fields["status"] {
        case "ok": status = .success
        case "error": status = .failure
        case let raw: status = .invalid(raw ?? "")
        }
        // An id sent empty is no id (a `null` one is already absent from `fields`): read as one, an offline
        // payment became "completed" with a blank transaction id, and never expired.
        func id(_ key: String) -> String? { fields[key].flatMap { $0.isEmpty ? nil : $0 } }
        let transactionID = id("transaction_id") ?? id("payment_id")
        let clientTransactionID = id("client_transaction_id") ?? id("offline_payment_id")
        let reference = fields["state"]
        let routingHint = data.outerItems.routingHint(reference: reference, notes: &notes)
        var cardPossible = true
        if case .launch(let request)? = hint, let tenders = request.tenderTypes {
            cardPossible = tenders.contains { Self.cardTenderTypes.contains($0) }
        }
        return CallbackOutcome(
            provider: provider,
            rawURL: url,
            status: status,
            transactionID: transactionID,
            clientTransactionID: clientTransactionID,
            reference: reference,
            errorCode: status == .success ? nil : fields["error_code"],
            message: fields["error_description"],
            isOffline: status == .success && clientTransactionID != nil && transactionID == nil && cardPossible,
            routingHint: routingHint,
            fields: fields,
            parseNotes: notes
        )
    }

    /// An optional `-` followed by digits, as `Int64`; `nil` for anything else (`"5.00"`, `"+5"`, `""`).
    static func integer(from text: String) -> Int64? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        return Int64(text)
    }
}
