import PaylogDomain
import PaylogProviders

extension CompatibilityChecker {
    /// The rules for SumUp callbacks (contract §3), judged against the app version declared with the request.
    static let sumUpCallbackChecks: [Check] = [
        .callback(
            "sumup.callback.app-version-unknown", .sumup, .info,
            "No request or no readable app version for the payment, so the app-version rules were not judged.",
            source: "[C] §3 callback table (min app column)"
        ) { context in
            guard context.appVersion == nil else { return [] }
            let why =
                context.request == nil
                ? "the payment's SumUp request is unknown"
                : "its request was recorded without a readable app version"
            return [
                "SumUp callback could not be judged against the app version (\(why)); smp-tx-code (1.53+) and "
                    + "the foreign-tx-id echo (1.53.2+) were not checked."
            ]
        },
        .callback(
            "sumup.callback.status-missing", .sumup, .warning,
            "No smp-status: an old app omitted it; the outcome came from the paylog marker or the opened URL.",
            source: "[C] §3 smp-status (always) and “older apps may omit parameters”"
        ) { context in
            guard context.fields["smp-status"] == nil else { return [] }
            let outcome: String
            switch context.callback.status {
            case .success: outcome = "success"
            case .failure: outcome = "failure"
            case .invalid: outcome = "unknown"
            }
            guard outcome != "unknown" else {
                return [
                    "SumUp callback has no smp-status; the contract sends it always, but older apps may omit it. "
                        + "Neither a paylog_outcome marker nor the request's callbacksuccess/callbackfail URLs tell "
                        + "which URL was opened, so the outcome is unknown."
                ]
            }
            return [
                "SumUp callback has no smp-status; the contract sends it always, but older apps may omit it. "
                    + "The outcome (\(outcome)) was taken from the paylog_outcome marker or the URL it was opened on."
            ]
        },
        .callback(
            "sumup.callback.status-invalid", .sumup, .error,
            "smp-status is not success, failed or invalidstate.",
            source: "[C] §3 smp-status values"
        ) { context in
            guard let raw = context.fields["smp-status"], !["success", "failed", "invalidstate"].contains(raw)
            else { return [] }
            return [
                "SumUp callback has smp-status \"\(raw)\"; the contract allows success, failed or invalidstate, "
                    + "so the outcome is unknown."
            ]
        },
        .callback(
            "sumup.callback.tx-code-impossible", .sumup, .error,
            "smp-tx-code from a SumUp app older than 1.53, which does not send it.",
            source: "[C] §3 smp-tx-code (min app 1.53)"
        ) { context in
            guard let code = context.fields["smp-tx-code"], let app = context.appVersion,
                let minimum = AppVersion("1.53"), app < minimum
            else { return [] }
            return [
                "SumUp callback carries smp-tx-code \(code), but the request declared app \(app) and "
                    + "smp-tx-code exists only from 1.53: the declared app version or the attribution is wrong."
            ]
        },
        .callback(
            "sumup.callback.tx-code-missing", .sumup, .warning,
            "A success callback from app 1.53+ without smp-tx-code (sent “when available”).",
            source: "[C] §3 smp-tx-code (when available); [I] that it is available on success"
        ) { context in
            guard context.callback.status == .success, context.fields["smp-tx-code"] == nil,
                let app = context.appVersion, let minimum = AppVersion("1.53"), app >= minimum
            else { return [] }
            return [
                "SumUp callback reports success without smp-tx-code although app \(app) sends it (from 1.53) "
                    + "when available; the payment cannot be matched to SumUp's report by transaction code."
            ]
        },
        .callback(
            "sumup.callback.foreign-tx-id-app-too-old", .sumup, .error,
            "A foreign-tx-id echo from a SumUp app older than 1.53.2, which does not echo it.",
            source: "[C] §3 foreign-tx-id echo (min app 1.53.2)"
        ) { context in
            guard let echo = context.fields["foreign-tx-id"], let app = context.appVersion,
                let minimum = AppVersion("1.53.2"), app < minimum
            else { return [] }
            return [
                "SumUp callback echoes foreign-tx-id \"\(echo)\", but the request declared app \(app) and the "
                    + "echo exists only from 1.53.2: the declared app version or the attribution is wrong."
            ]
        },
        .callback(
            "sumup.callback.foreign-tx-id-mismatch", .sumup, .error,
            "The foreign-tx-id echo differs from the request's, or echoes one that was never sent.",
            source: "[C] §3 foreign-tx-id (echo of the request's, only if sent)"
        ) { context in
            guard let request = context.request, let echo = context.fields["foreign-tx-id"] else { return [] }
            guard let sent = request.fields["foreign-tx-id"] else {
                return [
                    "SumUp callback echoes foreign-tx-id \"\(echo)\", but the payment's request sent none "
                        + "(it is echoed only if sent): the callback may belong to another payment."
                ]
            }
            guard echo != sent else { return [] }
            return [
                "SumUp callback echoes foreign-tx-id \"\(echo)\", but the request sent \"\(sent)\": the callback "
                    + "may belong to another payment."
            ]
        },
        .callback(
            "sumup.callback.foreign-tx-id-missing", .sumup, .warning,
            "The request sent foreign-tx-id to app 1.53.2+ but the callback does not echo it.",
            source: "[I] §3 foreign-tx-id (echo from 1.53.2; older apps may omit parameters)"
        ) { context in
            guard let sent = context.request?.fields["foreign-tx-id"], context.fields["foreign-tx-id"] == nil,
                let app = context.appVersion, let minimum = AppVersion("1.53.2"), app >= minimum
            else { return [] }
            return [
                "SumUp callback does not echo foreign-tx-id \"\(sent)\" although app \(app) echoes it (from "
                    + "1.53.2); it was routed by other means."
            ]
        },
    ]
}
