import PaylogDomain

extension CompatibilityChecker {
    /// The v1.0 request parameters the iZettle contract documents (§4).
    static let iZettleV1Keys: Set<String> = [
        "x-source", "x-success", "x-failure", "api-key", "price", "currency", "title", "reference", "image",
    ]

    /// The v1.0 failure codes (§4).
    static let iZettleErrorCodes: Set<String> = [
        "TechnicalError", "CancelledByUser", "InvalidCurrency", "InvalidState", "MissingParameter",
    ]

    /// The rules for iZettle launch requests and callbacks (contract §4).
    static let iZettleChecks: [Check] = [
        .request(
            "izettle.request.v3-deprecated", .izettle, .info,
            "A v3.0 `izettle://api/…` request: the 2015 form, deprecated in 2016.",
            source: "[C] §4 v3.0 (deprecated 2016)"
        ) { request in
            guard request.apiVersion == "3.0" else { return [] }
            return ["iZettle request uses the v3.0 izettle://api/… form, deprecated since 2016; an old record."]
        },
        .request(
            "izettle.request.required-key-missing", .izettle, .error,
            "A required parameter is missing or empty: v1.0 x-source, x-success, x-failure, api-key, price, "
                + "currency, title; v3.0 successURL, failureURL.",
            source: "[C] §4 v1.0 required list, v3.0 (R)"
        ) { request in
            let isV3 = request.apiVersion == "3.0"
            let required =
                isV3
                ? ["successURL", "failureURL"]
                : ["x-source", "x-success", "x-failure", "api-key", "price", "currency", "title"]
            return required.compactMap { key in
                guard (request.fields[key] ?? "").isEmpty else { return nil }
                let state = request.fields[key] == nil ? "has no" : "has an empty"
                return "iZettle \(isV3 ? "v3.0" : "v1.0") request \(state) \(key); the contract requires it."
            }
        },
        .request(
            "izettle.request.price-not-integer", .izettle, .warning,
            "v1.0 price is not a whole number (the format is unspecified; the sample accepts integers only).",
            source: "[I] §4 v1.0 price (the sample accepts integers only [C])"
        ) { request in
            guard request.apiVersion != "3.0", let raw = request.fields["price"], !raw.isEmpty,
                DecimalText(raw)?.isInteger != true
            else { return [] }
            return [
                "iZettle v1.0 request has price \"\(raw)\"; the price format is unspecified and the documented "
                    + "sample accepts whole numbers only, so the app may refuse or misread it."
            ]
        },
        .request(
            "izettle.request.price-not-positive", .izettle, .warning,
            "price (v3.0 amount) is zero or negative.",
            source: "[I] §4 price"
        ) { request in
            let key = request.apiVersion == "3.0" ? "amount" : "price"
            guard let raw = request.fields[key], let amount = DecimalText(raw), !amount.isPositive else { return [] }
            return ["iZettle request has \(key) \"\(raw)\"; a payment needs a positive amount."]
        },
        .request(
            "izettle.request.currency-not-iso", .izettle, .warning,
            "v1.0 currency is not an ISO 4217 code in capitals (three letters A–Z).",
            source: "[I] §4 currency (the app's InvalidCurrency error [C])"
        ) { request in
            guard request.apiVersion != "3.0", let raw = request.fields["currency"], !raw.isEmpty,
                !(raw.utf8.count == 3 && raw.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) })
            else { return [] }
            return [
                "iZettle v1.0 request has currency \"\(raw)\", not an ISO 4217 code in capitals such as \"SEK\"; the "
                    + "app may answer InvalidCurrency, and paylog reads no amount from it."
            ]
        },
        .request(
            "izettle.request.reference-too-long", .izettle, .warning,
            "v1.0 reference longer than 128 characters (the v3.0 limit, assumed to still hold).",
            source: "[I] §4 reference (v3.0 limit ≤ 128 applied to v1.0)"
        ) { request in
            guard request.apiVersion != "3.0", let value = request.fields["reference"],
                value.unicodeScalars.count > 128
            else { return [] }
            return [
                "iZettle v1.0 request has a reference of \(value.unicodeScalars.count) characters; v3.0 limited "
                    + "it to 128 and v1.0 documents no limit, so the app may truncate or refuse it."
            ]
        },
        .request(
            "izettle.request.v3-amount-format", .izettle, .error,
            "v3.0 amount does not match [0-9.]+.",
            source: "[C] §4 v3.0 payment/charge amount `[0-9.]+`"
        ) { request in
            guard request.apiVersion == "3.0", let raw = request.fields["amount"] else { return [] }
            guard raw.isEmpty || !raw.allSatisfy({ $0 == "." || ($0.isASCII && $0.isNumber) }) else { return [] }
            return ["iZettle v3.0 request has amount \"\(raw)\"; the contract requires [0-9.]+ (e.g. 12.50)."]
        },
        .request(
            "izettle.request.v3-reference-too-long", .izettle, .error,
            "v3.0 reference longer than 128 characters.",
            source: "[C] §4 v3.0 reference ≤ 128"
        ) { request in
            guard request.apiVersion == "3.0", let value = request.fields["reference"],
                value.unicodeScalars.count > 128
            else { return [] }
            return [
                "iZettle v3.0 request has a reference of \(value.unicodeScalars.count) characters; the contract "
                    + "allows at most 128."
            ]
        },
        .request(
            "izettle.request.unknown-key", .izettle, .warning,
            "A v1.0 parameter the contract does not document; the app presumably ignores it.",
            source: "[I] §4 v1.0 parameter list"
        ) { request in
            guard request.apiVersion != "3.0" else { return [] }
            return request.fields.keys.sorted().compactMap { key in
                guard !iZettleV1Keys.contains(key) else { return nil }
                return "iZettle v1.0 request carries \(key), which the contract does not document; the app "
                    + "presumably ignores it."
            }
        },
        .callback(
            "izettle.callback.status-undetermined", .izettle, .warning,
            "Nothing tells success from failure: no error parameter, no paylog_outcome marker, no matching URL.",
            source: "[I] §4 (v1.0 callbacks carry no status: only which URL was opened, or an error, tells)"
        ) { context in
            guard case .invalid = context.callback.status else { return [] }
            return [
                "iZettle callback has no error parameter, no paylog_outcome marker and matched neither the "
                    + "request's x-success nor x-failure URL, so whether the payment succeeded is unknown."
            ]
        },
        .callback(
            "izettle.callback.error-code-unknown", .izettle, .warning,
            "The failure code is not TechnicalError, CancelledByUser, InvalidCurrency, InvalidState or "
                + "MissingParameter; the raw value is kept.",
            source: "[C] §4 v1.0 error codes"
        ) { context in
            // The key the adapter took the code from: errorMessage too, when alone, for a v1.0 request (v3.0's
            // failure callback carries a message there, not a code).
            let keys = context.request?.apiVersion == "3.0" ? ["errorCode", "error"] : ["errorCode", "error", "errorMessage"]
            guard let key = keys.first(where: { context.fields[$0] != nil }),
                let code = context.fields[key], !iZettleErrorCodes.contains(code)
            else { return [] }
            return [
                "iZettle callback has \(key)=\"\(code)\", which is not a documented code (TechnicalError, "
                    + "CancelledByUser, InvalidCurrency, InvalidState, MissingParameter); it is kept as observed."
            ]
        },
        .callback(
            "izettle.callback.error-parameter-name", .izettle, .info,
            "The failure code came in `error` or `errorMessage` rather than the x-callback-url `errorCode`.",
            source: "[I] §4 (parameter name undocumented; x-callback-url convention is errorCode)"
        ) { context in
            guard context.fields["errorCode"] == nil, context.request?.apiVersion != "3.0",
                let key = ["error", "errorMessage"].first(where: { context.fields[$0] != nil })
            else { return [] }
            return [
                "iZettle callback reports its failure in \(key) rather than errorCode (the x-callback-url "
                    + "convention; iZettle does not document the name); read as a failure with code "
                    + "\"\(context.fields[key] ?? "")\"."
            ]
        },
        .callback(
            "izettle.callback.reference-mismatch", .izettle, .error,
            "v1.0: the reference echo is missing or differs from the request's, or echoes one that was never sent.",
            source: "[C] §4 reference (echoed on both callbacks)"
        ) { context in
            guard let request = context.request, request.apiVersion != "3.0" else { return [] }
            let sent = request.fields["reference"]
            let echo = context.fields["reference"]
            switch (sent, echo) {
            case (let sent?, nil):
                return [
                    "iZettle callback does not echo reference \"\(sent)\"; the contract echoes it on both callbacks."
                ]
            case (nil, let echo?):
                return [
                    "iZettle callback echoes reference \"\(echo)\", but the payment's request sent none: the "
                        + "callback may belong to another payment."
                ]
            case (let sent?, let echo?) where sent != echo:
                return [
                    "iZettle callback echoes reference \"\(echo)\", but the request sent \"\(sent)\": the callback "
                        + "may belong to another payment."
                ]
            default:
                return []
            }
        },
    ]
}
