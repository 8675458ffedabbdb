import PaylogDomain

extension CompatibilityChecker {
    /// The request keys the SumUp contract documents (§3).
    static let sumUpRequestKeys: Set<String> = [
        "amount", "currency", "affiliate-key", "title", "callbacksuccess", "callbackfail", "receipt-email",
        "receipt-mobilephone", "foreign-tx-id", "skip-screen-success", "total",
    ]

    /// The rules for SumUp launch requests (contract §3), judged against the declared app version.
    static let sumUpRequestChecks: [Check] = [
        .request(
            "sumup.request.app-version-unknown", .sumup, .info,
            "No readable app version was declared with the request, so the app-version rules were not judged.",
            source: "[C] §3 (the path stays 1.0; the app version matters)"
        ) { request in
            guard request.declaredAppVersion == nil else { return [] }
            let declared = request.appVersion.map { "an unreadable app version \"\($0)\"" } ?? "no app version"
            return [
                "SumUp request was recorded with \(declared); foreign-tx-id (1.53+), skip-screen-success (1.69+) "
                    + "and total (1.88.0+) could not be judged against the app."
            ]
        },
        .request(
            "sumup.request.required-key-missing", .sumup, .error,
            "A required parameter is missing or empty: amount, currency, affiliate-key.",
            source: "[C] §3 request table (req R)"
        ) { request in
            ["amount", "currency", "affiliate-key"].compactMap { key in
                guard (request.fields[key] ?? "").isEmpty else { return nil }
                let state = request.fields[key] == nil ? "has no" : "has an empty"
                return "SumUp request \(state) \(key); the contract requires it in every app version."
            }
        },
        .request(
            "sumup.request.amount-not-decimal", .sumup, .error,
            "amount is not a decimal number (digits with an optional fraction).",
            source: "[C] §3 amount (decimal string)"
        ) { request in
            guard let raw = request.fields["amount"], !raw.isEmpty, DecimalText(raw) == nil else { return [] }
            return [
                "SumUp request has amount \"\(raw)\", which is not a decimal number; the contract wants a "
                    + "decimal string in major units such as 12.50."
            ]
        },
        .request(
            "sumup.request.amount-format", .sumup, .warning,
            "amount uses a comma separator, more than 2 decimals, or more decimals than the currency has.",
            source: "[I] §3 amount (`.` separator, 2 decimals in practice)"
        ) { request in
            guard let raw = request.fields["amount"], let amount = DecimalText(raw) else { return [] }
            var messages: [String] = []
            if amount.separator == "," {
                messages.append(
                    "SumUp request has amount \"\(raw)\" with a comma; the contract's decimal separator is "
                        + "`.`, so the app may misread it.")
            }
            let digits = amount.fractionDigits.count
            if digits > 2 {
                messages.append(
                    "SumUp request has amount \"\(raw)\" with \(digits) decimals; in practice the app takes 2.")
            } else if let currency = request.currency, digits > currency.minorUnitExponent {
                messages.append(
                    "SumUp request has amount \"\(raw)\" with \(digits) decimals, but \(currency) has "
                        + "\(currency.minorUnitExponent).")
            }
            return messages
        },
        .request(
            "sumup.request.amount-not-positive", .sumup, .warning,
            "amount is zero or negative.",
            source: "[I] §3 amount"
        ) { request in
            guard let raw = request.fields["amount"], let amount = DecimalText(raw), !amount.isPositive else {
                return []
            }
            return ["SumUp request has amount \"\(raw)\"; a payment needs a positive amount."]
        },
        .request(
            "sumup.request.currency-code-malformed", .sumup, .error,
            "currency is not an ISO 4217 code (three uppercase letters).",
            source: "[C] §3 currency (ISO 4217)"
        ) { request in
            guard let raw = request.fields["currency"], !raw.isEmpty, request.currency == nil else { return [] }
            return [
                "SumUp request has currency \"\(raw)\", which is not an ISO 4217 code (three uppercase letters "
                    + "such as EUR); it must also match the logged-in merchant's currency."
            ]
        },
        .request(
            "sumup.request.foreign-tx-id-too-long", .sumup, .error,
            "foreign-tx-id longer than 128 characters.",
            source: "[C] §3 foreign-tx-id (≤ 128 chars)"
        ) { request in
            guard let value = request.receivedValue("foreign-tx-id"), value.count > 128 else { return [] }
            return [
                "SumUp request has a foreign-tx-id of \(value.count) \(value.unitName); the contract allows at most 128 "
                    + "characters."
            ]
        },
        .request(
            "sumup.request.foreign-tx-id-not-printable", .sumup, .error,
            "foreign-tx-id contains a character outside printable ASCII (0x20–0x7E).",
            source: "[C] §3 foreign-tx-id (printable ASCII)"
        ) { request in
            guard let value = request.receivedValue("foreign-tx-id"), let bad = value.firstNotPrintable else { return [] }
            let recorded = value.isBytes ? " (percent-encoded: the bytes are not UTF-8 text)" : ""
            return [
                "SumUp request has foreign-tx-id \"\(value.recorded)\"\(recorded) containing \(bad); the contract "
                    + "allows only printable ASCII (0x20–0x7E)."
            ]
        },
        .request(
            "sumup.request.foreign-tx-id-space", .sumup, .warning,
            "foreign-tx-id contains a space (whether the contract's printable ASCII includes it is unclear).",
            source: "[I] §3 foreign-tx-id (space unclear)"
        ) { request in
            guard let value = request.receivedValue("foreign-tx-id"), value.containsSpace else { return [] }
            return [
                "SumUp request has foreign-tx-id \"\(value.recorded)\" containing a space; the contract says printable "
                    + "ASCII but it is unclear whether the app accepts a space — prefer ids without one."
            ]
        },
        .request(
            "sumup.request.foreign-tx-id-app-too-old", .sumup, .error,
            "foreign-tx-id sent to a SumUp app older than 1.53.",
            source: "[C] §3 foreign-tx-id (min app 1.53)"
        ) { request in
            guard request.fields["foreign-tx-id"] != nil else { return [] }
            let message = request.sumUpAppBelow(
                "1.53", field: "foreign-tx-id", what: " (the reference echoed back from 1.53.2)")
            return message.map { [$0 + " The app ignores it, so the callback cannot be matched by it."] } ?? []
        },
        .request(
            "sumup.request.skip-screen-success-value", .sumup, .error,
            "skip-screen-success with a value other than `true`.",
            source: "[C] §3 skip-screen-success (only `true`)"
        ) { request in
            guard let value = request.fields["skip-screen-success"], value != "true" else { return [] }
            return [
                "SumUp request has skip-screen-success=\"\(value)\"; the contract allows only \"true\" "
                    + "(omit the parameter to show the success screen)."
            ]
        },
        .request(
            "sumup.request.skip-screen-success-app-too-old", .sumup, .error,
            "skip-screen-success sent to a SumUp app older than 1.69.",
            source: "[C] §3 skip-screen-success (min app 1.69)"
        ) { request in
            guard request.fields["skip-screen-success"] != nil else { return [] }
            return request.sumUpAppBelow("1.69", field: "skip-screen-success", what: "").map { [$0] } ?? []
        },
        .request(
            "sumup.request.total-app-too-old", .sumup, .error,
            "total sent to a SumUp app older than 1.88.0.",
            source: "[C] §3 total (min app 1.88.0)"
        ) { request in
            guard request.fields["total"] != nil else { return [] }
            return request.sumUpAppBelow("1.88.0", field: "total", what: "").map { [$0] } ?? []
        },
        .request(
            "sumup.request.total-platform", .sumup, .info,
            "total is honoured only by the Android and web apps.",
            source: "[C] §3 total (Android/web only)"
        ) { request in
            guard request.fields["total"] != nil else { return [] }
            return [
                "SumUp request carries total; only the Android and web apps honour it — an iOS app ignores it."
            ]
        },
        .request(
            "sumup.request.personal-data", .sumup, .info,
            "receipt-email or receipt-mobilephone prefill: the log holds personal data.",
            source: "[C] §3 receipt-email, receipt-mobilephone (prefill values — personal data)"
        ) { request in
            ["receipt-email", "receipt-mobilephone"].compactMap { key in
                guard request.fields[key] != nil else { return nil }
                return "SumUp request carries \(key): personal data recorded in the log; handle it accordingly."
            }
        },
        .request(
            "sumup.request.unknown-key", .sumup, .warning,
            "A parameter the SumUp contract does not document; the app presumably ignores it.",
            source: "[I] §3 request table (parameter not listed)"
        ) { request in
            request.fields.keys.sorted().compactMap { key in
                guard !sumUpRequestKeys.contains(key) else { return nil }
                return "SumUp request carries \(key), which the contract does not document; the app presumably "
                    + "ignores it."
            }
        },
    ]
}
