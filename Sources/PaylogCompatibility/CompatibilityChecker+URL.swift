import PaylogDomain

extension CompatibilityChecker {
    /// The documented launch endpoint (host + path) per provider, for messages.
    static func documentedEndpoint(of provider: Provider) -> String {
        switch provider {
        case .square: return "payment/create"
        case .sumup: return "pay/1.0"
        case .izettle: return "x-callback-url/payment/1.0 (or the deprecated api/<operation>)"
        }
    }

    /// The rules about the URL itself and the request–callback pairing, for every provider; mostly driven by
    /// the adapters' ``PaylogDomain/ParseNote``s.
    static let urlChecks: [Check] = [
        .request(
            "url.unexpected-endpoint", nil, .error,
            "The launch URL's host and path are not the provider's documented endpoint.",
            source: "[C] §1 launch URL, §3 `sumupmerchant://pay/1.0`, §4 v1.0/v3.0 endpoints"
        ) { request in
            request.parseNotes.compactMap { note in
                guard case .unexpectedEndpoint(let endpoint) = note else { return nil }
                return "\(request.provider.displayName) launch URL goes to \"\(endpoint)\"; the contract's "
                    + "endpoint is \(documentedEndpoint(of: request.provider)), so the app may not open the payment."
            }.uniqued()
        },
        .parseNote(
            "url.lenient-parsing", nil, .warning,
            "The URL holds characters that must be percent-encoded (space, `{`, `\"`, a stray `%`); it was read "
                + "leniently.",
            source: "[I] RFC 3986; §1 (parse with a real URL parser)"
        ) { note in
            guard note == .lenientURLParsing else { return nil }
            return "The URL contains characters that must be percent-encoded (a space, {, \", or a stray %); "
                + "paylog read it leniently, but the receiving app may reject or misread it."
        },
        .parseNote(
            "url.undecodable-percent-encoding", nil, .warning,
            "A query item is not valid percent-encoded UTF-8; it is kept encoded.",
            source: "[I] RFC 3986 (percent-encoded UTF-8)"
        ) { note in
            guard case .undecodablePercentEncoding(let name) = note else { return nil }
            return "Query item \(name) is not valid percent-encoded UTF-8; it is kept percent-encoded, and the "
                + "receiving app may read it differently."
        },
        .parseNote(
            "url.duplicate-query-item", nil, .warning,
            "A query item occurs more than once; the first occurrence was used.",
            source: "[I] (no contract defines repeated parameters)"
        ) { note in
            guard case .duplicateQueryItem(let name) = note else { return nil }
            return "Query item \(name) occurs more than once; paylog used the first, but the provider app may "
                + "use another."
        },
        .parseNote(
            "square.url.data-recovered", .square, .info,
            "The `data` value was not one clean query item (unescaped `&`, or a callback URL with its own "
                + "query); the JSON after `data=` was used.",
            source: "[C] §1 (doc's URLQueryAllowedCharacterSet advice leaves & + = / unescaped)"
        ) { note in
            guard note == .dataRecoveredFromRawQuery else { return nil }
            return "Square data was not a single clean query item (an unescaped & as the doc's "
                + "URLQueryAllowedCharacterSet advice produces, or a callback URL with its own query); paylog "
                + "read the JSON after data=. Legal, but a naive parser would fail."
        },
        .parseNote(
            "square.url.data-null-value", .square, .warning,
            "A key of the `data` JSON was sent as null; it was read as absent.",
            source: "[I] §1a, §1b (the contract gives no key a null value)"
        ) { note in
            guard case .jsonNull(let path) = note else { return nil }
            return "Square data sends \(path) as JSON null; paylog read it as absent, as if the key were not sent "
                + "(the recorded URL keeps the null). The app may read it otherwise."
        },
        .parseNote(
            "square.url.data-duplicate-key", .square, .warning,
            "A key occurs more than once in one object of the `data` JSON; the first value was read.",
            source: "[I] (no contract defines repeated JSON keys)"
        ) { note in
            guard case .duplicateJSONKey(let path, let read, let other) = note else { return nil }
            return "Square data has the key \(path) more than once; paylog read the first value, \(read), but the "
                + "provider app may read a later one (a reader keeping the last), \(other)."
        },
        .parseNote(
            "request.app-version-unreadable", nil, .warning,
            "The app version declared with the request is not dotted numbers, so version rules cannot use it.",
            source: "[I] paylog recording convention (app versions such as 1.53.2)"
        ) { note in
            guard case .unreadableAppVersion(let text) = note else { return nil }
            return "The declared app version \"\(text)\" is not dotted numbers (such as 1.53.2 or 4.59); "
                + "app-version rules could not use it."
        },
        .parseNote(
            "callback.conflicting-outcome", nil, .warning,
            "An error parameter and the paylog_outcome=success marker disagree; the error parameter wins.",
            source: "[I] §4 (error parameter means failure)"
        ) { note in
            guard note == .conflictingOutcome else { return nil }
            return "The callback carries an error parameter but was opened on the success URL "
                + "(paylog_outcome=success); it was read as a failure — check with the provider."
        },
        .parseNote(
            "sumup.callback.status-contradicts-url", .sumup, .warning,
            "smp-status says the opposite of the URL the app opened (callbacksuccess or callbackfail); the status "
                + "is used.",
            source: "[I] §3 (“success opens callbacksuccess, everything else callbackfail”)"
        ) { note in
            guard case .statusContradictsOpenedURL(let status, let opened) = note else { return nil }
            return "SumUp callback has smp-status \"\(status)\" but was opened on the request's \(opened) URL; the "
                + "app opens callbacksuccess for success and callbackfail for anything else, so one of the two is "
                + "wrong — the status was used; check the payment with SumUp."
        },
        .parseNote(
            "callback.invalid-routing-payment-id", nil, .warning,
            "The paylog_payment marker is not a valid payment id, so it was not used for routing.",
            source: "[I] paylog callback markers"
        ) { note in
            guard case .invalidRoutingPaymentID(let text) = note else { return nil }
            return "The callback's paylog_payment=\"\(text)\" is not a valid payment id (1–128 printable ASCII "
                + "characters); it could be routed only by its reference echo."
        },
        .callback(
            "callback.provider-mismatch", nil, .warning,
            "The callback's provider differs from the provider of the payment's latest request.",
            source: "[I] routing (a payment's callback comes from the app it launched)"
        ) { context in
            guard let request = context.declaredRequest, request.provider != context.callback.provider else {
                return []
            }
            return [
                "The callback was attributed to \(context.callback.provider.displayName), but the payment's "
                    + "latest request went to \(request.provider.displayName); request-dependent rules were skipped."
            ]
        },
    ]
}
