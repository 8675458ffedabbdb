import PaylogDomain

extension CompatibilityChecker {
    /// The rules for Square callbacks (contract §1b, §1c).
    static let squareCallbackChecks: [Check] = [
        .callback(
            "square.callback.status-invalid", .square, .error,
            "`status` is missing or not \"ok\"/\"error\".",
            source: "[C] §1b status"
        ) { context in
            guard case .invalid(let raw) = context.callback.status else { return [] }
            if context.fields["status"] == nil {
                return ["Square callback has no status; the contract says every callback carries \"ok\" or \"error\"."]
            }
            return [
                "Square callback has status \"\(raw)\"; the contract allows only \"ok\" or \"error\", so the "
                    + "outcome is unknown."
            ]
        },
        .callback(
            "square.callback.client-transaction-id-missing", .square, .error,
            "A status \"ok\" callback (API 1.0 and later) without client_transaction_id.",
            source: "[C] §1b client_transaction_id (R on ok, even online)"
        ) { context in
            let fields = context.fields
            guard context.callback.status == .success, context.callback.clientTransactionID == nil,
                context.squareLevel.map({ $0 >= .v1_0 }) ?? (context.request == nil),
                fields["payment_id"] == nil, fields["offline_payment_id"] == nil
            else { return [] }
            let has = context.callback.parseNotes.contains(.jsonNull("client_transaction_id")) ? "sends a null"
                : fields["client_transaction_id"] == "" ? "sends an empty" : "has no"
            return [
                "Square callback with status \"ok\" \(has) client_transaction_id; the contract requires it on "
                    + "every successful payment (online too), and an offline payment cannot be reconciled without it."
            ]
        },
        .callback(
            "square.callback.error-code-missing", .square, .error,
            "A status \"error\" callback without error_code.",
            source: "[C] §1b error_code (R on error)"
        ) { context in
            guard context.callback.status == .failure, (context.fields["error_code"] ?? "").isEmpty else { return [] }
            let has = context.callback.parseNotes.contains(.jsonNull("error_code")) ? "sends a null"
                : context.fields["error_code"] == "" ? "sends an empty" : "has no"
            return [
                "Square callback with status \"error\" \(has) error_code; the contract requires one, so the "
                    + "reason for the failure is unknown."
            ]
        },
        .callback(
            "square.callback.id-empty", .square, .warning,
            "transaction_id or client_transaction_id (or a pre-1.0 stand-in) was sent as an empty string; it was "
                + "read as no id.",
            source: "[I] §1b transaction_id, client_transaction_id (an id, never empty)"
        ) { context in
            ["transaction_id", "client_transaction_id", "payment_id", "offline_payment_id"].compactMap { key in
                guard context.fields[key] == "" else { return nil }
                return "Square callback sends \(key) as an empty string; paylog read it as no id (the recorded URL "
                    + "keeps it as sent)."
            }
        },
        .callback(
            "square.callback.key-not-for-status", .square, .error,
            "transaction_id or client_transaction_id on a status \"error\" callback.",
            source: "[C] §1b (absent on error)"
        ) { context in
            guard context.callback.status == .failure else { return [] }
            return ["transaction_id", "client_transaction_id"].compactMap { key in
                guard let value = context.fields[key] else { return nil }
                return "Square callback with status \"error\" carries \(key) \(value); the contract says it is "
                    + "absent on errors — check whether a payment was taken after all."
            }
        },
        .callback(
            "square.callback.error-code-on-ok", .square, .warning,
            "error_code other than the SDK's \"0\" on a status \"ok\" callback.",
            source: "[I] §1b error_code (— on ok; SDK tests carry \"0\")"
        ) { context in
            guard context.callback.status == .success, let code = context.fields["error_code"], code != "0"
            else { return [] }
            return [
                "Square callback with status \"ok\" also carries error_code \"\(code)\"; the contract has no "
                    + "error_code on success (only the SDK's \"0\" is expected). Treated as success."
            ]
        },
        .callback(
            "square.callback.error-code-unknown", .square, .warning,
            "error_code is not in the contract's table; the raw string is kept.",
            source: "[C/I] §1c (unknown strings: keep raw, classify as unknown)"
        ) { context in
            guard context.callback.status == .failure, let code = context.fields["error_code"], !code.isEmpty,
                SquareErrorCode.named(code) == nil
            else { return [] }
            return [
                "Square callback has error_code \"\(code)\", which is not in the contract's error-code table; "
                    + "it is kept as observed and classified as unknown."
            ]
        },
        .callback(
            "square.callback.error-code-not-in-version", .square, .error,
            "A known error_code that the request's API version cannot send (e.g. user_id_mismatch in 1.3, "
                + "location_id_mismatch before 1.3, invalid_customer_id before 1.2).",
            source: "[C] §1c since/status columns"
        ) { context in
            guard let code = context.fields["error_code"].flatMap(SquareErrorCode.named),
                context.callback.status == .failure, let level = context.squareLevel, !code.exists(at: level)
            else { return [] }
            if level < code.since {
                return [
                    "Square callback has error_code \(code.code), which exists only from \(code.since.name); "
                        + "the payment's request was a \(level.requestLabel)."
                ]
            }
            let replacement = code.replacedBy.map { " (\(level.name) uses \($0))" } ?? ""
            return [
                "Square callback has error_code \(code.code), which exists only up to "
                    + "\(code.through?.name ?? "")\(replacement); the payment's request was a \(level.requestLabel)."
            ]
        },
        .callback(
            "square.callback.error-code-deprecated", .square, .warning,
            "A deprecated error_code for the request's API version (client_not_authorized_for_user from 1.2).",
            source: "[C] §1c (deprecated from Register 4.53 / API 1.2)"
        ) { context in
            guard let code = context.fields["error_code"].flatMap(SquareErrorCode.named),
                context.callback.status == .failure, let deprecated = code.deprecatedFrom,
                let level = context.squareLevel, level >= deprecated
            else { return [] }
            return [
                "Square callback has error_code \(code.code), which is deprecated from \(deprecated.nameWithApp); "
                    + "the payment's request was a \(level.requestLabel). Kept, but a current app should not send it."
            ]
        },
        .callback(
            "square.callback.error-code-removed", .square, .warning,
            "An error_code Square removed (login_code_invalid, 2016); plausible only on an old record.",
            source: "[C] §1c (removed 2016)"
        ) { context in
            guard let code = context.fields["error_code"].flatMap(SquareErrorCode.named),
                context.callback.status == .failure, let removed = code.removed
            else { return [] }
            return [
                "Square callback has error_code \(code.code), which Square removed in \(removed); expect it only "
                    + "on records from before then."
            ]
        },
        .callback(
            "square.callback.state-mismatch", .square, .error,
            "The request sent `state` but the callback does not echo it verbatim.",
            source: "[C] §1a state, §1b state (echo)"
        ) { context in
            guard let request = context.request, let sent = request.fields["state"] else { return [] }
            let sentState = SquareState(sent, notes: request.parseNotes)
            guard let echoed = context.fields["state"] else {
                return [
                    "Square callback has no state, but the request sent state \(sentState); the contract says it "
                        + "is echoed verbatim — the callback may belong to another payment."
                ]
            }
            let echoedState = SquareState(echoed, notes: context.callback.parseNotes)
            guard echoedState != sentState else { return [] }
            return [
                "Square callback echoes state \(echoedState), but the request sent \(sentState); the contract says it "
                    + "is echoed verbatim — the callback may belong to another payment."
            ]
        },
        .callback(
            "square.callback.state-unsolicited", .square, .warning,
            "The callback carries `state` although the request sent none.",
            source: "[I] §1b state (echo of nothing)"
        ) { context in
            guard let request = context.request, request.fields["state"] == nil,
                let echoed = context.fields["state"]
            else { return [] }
            return [
                "Square callback carries state \(SquareState(echoed, notes: context.callback.parseNotes)), but the payment's request sent no state; "
                    + "the callback may belong to another payment."
            ]
        },
        .callback(
            "square.callback.legacy-ids-after-1.0", .square, .error,
            "payment_id or offline_payment_id on a callback for an API 1.0+ request (pre-1.0 only).",
            source: "[C] §1b payment_id, offline_payment_id (pre-1.0 only, removed in SDK 2.0)"
        ) { context in
            guard let level = context.squareLevel, level >= .v1_0 else { return [] }
            return ["payment_id", "offline_payment_id"].compactMap { key in
                guard context.fields[key] != nil else { return nil }
                return "Square callback carries \(key), which only pre-1.0 callbacks have, but the payment's "
                    + "request was a \(level.requestLabel)."
            }
        },
        .callback(
            "square.callback.legacy-ids", .square, .info,
            "payment_id or offline_payment_id on a pre-1.0 (or unattributed) callback: the legacy shape.",
            source: "[C] §1b payment_id, offline_payment_id (pre-1.0 only)"
        ) { context in
            guard context.squareLevel.map({ $0 == .preV1 }) ?? (context.request == nil) else { return [] }
            return ["payment_id", "offline_payment_id"].compactMap { key in
                guard context.fields[key] != nil else { return nil }
                return "Square callback carries \(key): a legacy pre-1.0 callback; it stands in for "
                    + (key == "payment_id" ? "transaction_id." : "client_transaction_id.")
            }
        },
        .callback(
            "square.callback.offline", .square, .info,
            "A status \"ok\" callback without transaction_id: taken offline (or an asynchronous CASH/OTHER tender).",
            source: "[C] §1b transaction_id (absent offline), offline mode"
        ) { context in
            guard context.callback.isOffline else { return [] }
            return [
                "Square callback with status \"ok\" has client_transaction_id "
                    + "\(context.callback.clientTransactionID ?? "") but no transaction_id: the payment was taken "
                    + "offline (or with an asynchronous CASH/OTHER tender). Reconcile it by client_id == "
                    + "client_transaction_id in Square's transaction listing; offline payments expire if not "
                    + "uploaded within 24 h."
            ]
        },
    ]
}
