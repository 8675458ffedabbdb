import PaylogDomain
import PaylogProviders

extension CompatibilityChecker {
    /// The rules for Square launch requests (contract §1a).
    static let squareRequestChecks: [Check] = [
        .request(
            "square.request.legacy-pre-1.0", .square, .info,
            "The request has no `version` key: a legacy pre-1.0 record, judged against the pre-1.0 column.",
            source: "[C] §1a `version` (absent ⇒ legacy pre-1.0 record)"
        ) { request in
            guard request.fields["version"] == nil else { return [] }
            return [
                "Square request has no `version` key, so it is a legacy pre-1.0 record (before Register 4.34); "
                    + "it is judged against the pre-1.0 column of the contract."
            ]
        },
        .request(
            "square.request.version-unknown", .square, .error,
            "`version` is not one of 1.0, 1.1, 1.2, 1.3; version-dependent rules are skipped.",
            source: "[C] §1a `version` (no \"1.4\" known)"
        ) { request in
            guard let text = request.fields["version"], SquareLevel(apiVersion: text) == nil else { return [] }
            let written = request.parseNotes.contains(.versionNotString(text))
                ? "\(JSONKind.phrase(for: text)) \(text)" : "\"\(text)\""
            return [
                "Square request declares version \(written), which is not a known Square API version "
                    + "(1.0, 1.1, 1.2, 1.3; no 1.4 is known); Square answers unsupported_api_version or "
                    + "invalid_version_number. Version-dependent rules were not judged."
            ]
        },
        .request(
            "square.request.required-key-missing", .square, .error,
            "A key the claimed version requires is missing or empty: client_id, amount_money.amount, "
                + "amount_money.currency_code, callback_url; options from API 1.0.",
            source: "[C] §1a R column"
        ) { request in
            let level = SquareLevel(apiVersion: request.fields["version"])
            return SquareRequestKey.table.compactMap { row in
                guard let required = row.requiredFrom else { return nil }
                // For an unknown version only the keys every version requires are judged.
                guard level.map({ $0 >= required }) ?? (required == .preV1) else { return nil }
                let label = level?.requestLabel ?? "Square request"
                let since = required == .preV1 ? "every API version" : "\(required.name) and later"
                let what = row.note.map { " (\($0))" } ?? ""
                if request.parseNotes.contains(.jsonNull(row.key)) {
                    return "\(label) sends \(row.key) as JSON null\(what); the contract requires a value in \(since)."
                }
                if !row.isPresent(in: request.fields) {
                    return "\(label) has no \(row.key)\(what); the contract requires it in \(since)."
                }
                if request.fields[row.key] == "" {
                    return "\(label) has an empty \(row.key)\(what); the contract requires it in \(since)."
                }
                return nil
            }
        },
        .request(
            "square.request.key-not-in-version", .square, .error,
            "A key the claimed version does not have: location_id before 1.3, merchant_id in 1.3, "
                + "customer_id before 1.2.",
            source: "[C] §1a (— cells)"
        ) { request in
            guard let level = SquareLevel(apiVersion: request.fields["version"]) else { return [] }
            return SquareRequestKey.table.compactMap { row in
                guard row.isPresent(in: request.fields), level < row.from || level > row.through else { return nil }
                let note = row.note.map { "; \($0)" } ?? ""
                if level < row.from {
                    return "\(level.requestLabel) carries \(row.key), which exists only from "
                        + "\(row.from.nameWithApp)\(note)."
                }
                return "\(level.requestLabel) carries \(row.key), which exists only up to \(row.through.name)\(note)."
            }
        },
        .request(
            "square.request.unknown-key", .square, .warning,
            "A request key no Square API version documents; Square presumably ignores it.",
            source: "[I] §1a (key not in the table)"
        ) { request in
            request.fields.keys.sorted().compactMap { key in
                guard !key.hasPrefix("query."), !SquareRequestKey.documented.contains(key) else { return nil }
                return "Square request carries \(key), which no Square API version documents; "
                    + "Point of Sale presumably ignores it."
            }
        },
        .request(
            "square.request.app-below-api-minimum", .square, .error,
            "The declared Square app is older than the first app that understands the claimed API version.",
            source: "[C] §1a minimum app per API version (1.0 → 4.34, 1.1 → 4.50, 1.2 → 4.53, 1.3 → 4.59)"
        ) { request in
            guard let level = SquareLevel(apiVersion: request.fields["version"]), let app = level.minimumApp,
                let declared = request.appVersion.flatMap(AppVersion.init), let minimum = AppVersion(app.version),
                declared < minimum
            else { return [] }
            return [
                "\(level.requestLabel) was sent to Square app \(declared), but \(level.name) needs "
                    + "\(app.name) \(app.version) or later; the app answers unsupported_api_version."
            ]
        },
        .request(
            "square.request.tender-type-not-in-version", .square, .error,
            "options.supported_tender_types lists a tender type the claimed version lacks "
                + "(1.1 adds CASH, OTHER, SQUARE_GIFT_CARD; 1.2 CARD_ON_FILE; 1.3 PAYPAY).",
            source: "[C] §1a options.supported_tender_types"
        ) { request in
            guard let level = SquareLevel(apiVersion: request.fields["version"]) else { return [] }
            return (request.tenderTypes ?? []).uniqued().compactMap { tender in
                guard !level.tenderTypes.contains(tender) else { return nil }
                guard let first = SquareLevel.allCases.first(where: { $0.tenderTypes.contains(tender) }) else {
                    return "\(level.requestLabel) lists tender type \(tender) in options.supported_tender_types, "
                        + "which no Square API version has (known: CREDIT_CARD, CASH, OTHER, SQUARE_GIFT_CARD, "
                        + "CARD_ON_FILE, PAYPAY)."
                }
                let extra = tender == "PAYPAY" ? ", Japan only, SDK 3.5.4" : ""
                return "\(level.requestLabel) lists tender type \(tender) in options.supported_tender_types, "
                    + "which exists only from \(first.nameWithApp)\(extra)."
            }
        },
        .request(
            "square.request.tender-types-empty", .square, .warning,
            "options.supported_tender_types is present but empty.",
            source: "[I] §1a options.supported_tender_types"
        ) { request in
            guard request.fields["options.supported_tender_types"] == "" else { return [] }
            return [
                "Square request sends an empty options.supported_tender_types list; the contract does not say what "
                    + "the app does with it, and it may offer no tender at all (omit the key to get the app's default)."
            ]
        },
        .request(
            "square.request.tender-types-not-array", .square, .warning,
            "options.supported_tender_types is not a JSON array of tender types.",
            source: "[C] §1a options.supported_tender_types (an array); [I] what the app makes of another value"
        ) { request in
            request.parseNotes.compactMap { note in
                guard case .tenderTypesNotArray(let text) = note else { return nil }
                return "Square request sends options.supported_tender_types as \(JSONKind.phrase(for: text)) \(text), "
                    + "not the array of tender types the contract specifies; the app may ignore it or refuse the "
                    + "request (paylog judged it as a list of that one value)."
            }
        },
        .request(
            "square.request.version-not-string", .square, .warning,
            "`version` was sent as a JSON number (or another non-string value), not the string the contract specifies.",
            source: "[C] §1a `version` (string); [I] whether the app reads a number"
        ) { request in
            request.parseNotes.compactMap { note in
                guard case .versionNotString(let text) = note else { return nil }
                let judged = SquareLevel(apiVersion: text) != nil ? "as version \(text)" : "as an unknown version"
                return "Square request sends version as \(JSONKind.phrase(for: text)) \(text), not the string the "
                    + "contract specifies; the app may not read it (and answer invalid_version_number). paylog judged "
                    + "the request \(judged)."
            }
        },
        .request(
            "square.request.option-not-boolean", .square, .warning,
            "options.clear_default_fees or options.auto_return is not a JSON boolean.",
            source: "[C] §1a options.clear_default_fees, options.auto_return (bool); [I] what the app makes of "
                + "another value"
        ) { request in
            request.parseNotes.compactMap { note in
                guard case .optionNotBoolean(let key, let text) = note else { return nil }
                return "Square request sends \(key) as \(JSONKind.phrase(for: text)) \(text), not the boolean true "
                    + "or false the contract specifies; the app may ignore it or refuse the request."
            }
        },
        .request(
            "square.request.amount-as-string", .square, .warning,
            "amount_money.amount was sent as a JSON string (as the doc's JS sample does), not a number.",
            source: "[I] §1a amount_money.amount (accept, warn)"
        ) { request in
            guard request.parseNotes.contains(.amountSentAsString) else { return [] }
            return [
                "Square request sends amount_money.amount as the JSON string \"\(request.rawAmount ?? "")\"; "
                    + "the contract specifies an integer (the doc's JS sample does this and it is accepted)."
            ]
        },
        .request(
            "square.request.amount-not-integer-literal", .square, .warning,
            "amount_money.amount was a whole number written with a fraction or an exponent (500.0, 5e2).",
            source: "[I] §1a amount_money.amount (integer, smallest currency unit)"
        ) { request in
            request.parseNotes.compactMap { note in
                guard case .amountNotIntegerLiteral(let text) = note else { return nil }
                return "Square request writes amount_money.amount as \(text), not as an integer; paylog read it as "
                    + "\(request.rawAmount ?? "that integer"), but the contract specifies an integer of minor units and "
                    + "the app may answer amount_invalid_format."
            }
        },
        .request(
            "square.request.amount-not-integer", .square, .error,
            "amount_money.amount is not a whole number of minor units.",
            source: "[C] §1a amount_money.amount (integer, smallest currency unit)"
        ) { request in
            guard let raw = request.fields["amount_money.amount"], raw != "" else { return [] }
            guard DecimalText(raw)?.isInteger != true else { return [] }
            return [
                "Square request has amount_money.amount \(raw), which is not an integer; the contract wants "
                    + "the amount in the currency's smallest unit (e.g. 1250 for 12.50 EUR), and Square answers "
                    + "amount_invalid_format."
            ]
        },
        .request(
            "square.request.amount-out-of-range", .square, .warning,
            "amount_money.amount is a whole number too large for any amount (over 2^63 − 1 minor units); the request "
                + "is recorded without an amount or currency.",
            source: "[I] §1a amount_money.amount, §1c amount_too_large"
        ) { request in
            guard let raw = request.fields["amount_money.amount"], let amount = DecimalText(raw), amount.isInteger,
                amount.isPositive, Int64(raw) == nil
            else { return [] }
            return [
                "Square request has amount_money.amount \(raw), more minor units than any amount can hold "
                    + "(at most 9223372036854775807); paylog recorded the request without an amount or currency, "
                    + "and Square would answer amount_too_large or amount_invalid_format."
            ]
        },
        .request(
            "square.request.amount-not-positive", .square, .error,
            "amount_money.amount is zero or negative.",
            source: "[C] §1a amount_money.amount, §1c amount_too_small"
        ) { request in
            guard let raw = request.fields["amount_money.amount"], let amount = DecimalText(raw), amount.isInteger,
                !amount.isPositive
            else { return [] }
            return [
                "Square request has amount_money.amount \(raw); a payment must be a positive number of minor "
                    + "units, and Square answers amount_too_small."
            ]
        },
        .request(
            "square.request.currency-code-malformed", .square, .error,
            "amount_money.currency_code is not an ISO 4217 code (three uppercase letters).",
            source: "[C] §1a amount_money.currency_code (ISO 4217)"
        ) { request in
            guard let raw = request.fields["amount_money.currency_code"], raw != "", request.currency == nil
            else { return [] }
            return [
                "Square request has amount_money.currency_code \"\(raw)\", which is not an ISO 4217 code "
                    + "(three uppercase letters such as USD); Square answers unsupported_currency_code."
            ]
        },
        .request(
            "square.request.skip-receipt-gating", .square, .warning,
            "options.skip_receipt before API 1.2, where the contract does not list it (minimum app unknown).",
            source: "[I] §1a options.skip_receipt (— pre-1.0, ? in 1.0/1.1, listed from the 1.2-era doc)"
        ) { request in
            guard request.fields["options.skip_receipt"] != nil,
                let level = SquareLevel(apiVersion: request.fields["version"]), level < .v1_2
            else { return [] }
            return [
                "\(level.requestLabel) sets options.skip_receipt, which the contract lists only from the "
                    + "API 1.2-era doc (minimum app unknown); an older app may ignore it and show the receipt screen."
            ]
        },
        .request(
            "square.request.disable-cnp-gating", .square, .warning,
            "options.disable_cnp before API 1.3 (it arrived with SDK 3.3.2; minimum app unknown).",
            source: "[I] §1a options.disable_cnp (1.3 only, SDK 3.3.2+)"
        ) { request in
            guard request.fields["options.disable_cnp"] != nil,
                let level = SquareLevel(apiVersion: request.fields["version"]), level < .v1_3
            else { return [] }
            return [
                "\(level.requestLabel) sets options.disable_cnp, which the contract lists only in API 1.3 "
                    + "(SDK 3.3.2+, minimum app unknown); an older app may ignore it and still offer "
                    + "card-not-present entry."
            ]
        },
        .request(
            "square.request.notes-too-long", .square, .warning,
            "notes longer than 500 characters (Android caps NOTE at 500; iOS may truncate too).",
            source: "[C] §1a notes (Android cap 500); [I] for the iOS app switch"
        ) { request in
            guard let notes = request.fields["notes"], notes.count > 500 else { return [] }
            return [
                "Square request has notes of \(notes.count) characters; Point of Sale for Android caps the "
                    + "note at 500, so the receipt may show it truncated."
            ]
        },
        .request(
            "square.request.sdk-version", .square, .info,
            "sdk_version is present: the request was built by Square's SDK; informational.",
            source: "[C] §1a sdk_version"
        ) { request in
            guard let sdk = request.fields["sdk_version"] else { return [] }
            return [
                "Square request carries sdk_version \(sdk): it was built by the Point of Sale SDK, not by hand; "
                    + "informational only."
            ]
        },
        .request(
            "square.request.sdk-callback-marker", .square, .info,
            "callback_url carries the `square_request` marker the SDK (3.4.0+) adds; it differs from the "
                + "configured URL by design.",
            source: "[C] §1a (SDK ≥ 3.4.0 rewrites callback_url)"
        ) { request in
            guard let url = request.fields["callback_url"], url.contains("square_request") else { return [] }
            return [
                "Square request's callback_url \(url) contains square_request: the SDK (3.4.0+) rewrites the "
                    + "configured callback URL this way, so it differs from the app's setting; not an error."
            ]
        },
    ]
}
