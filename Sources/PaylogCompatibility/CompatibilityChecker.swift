import PaylogDomain

/// Judges recorded launch requests and callbacks against the provider contract of the version they claim or
/// imply (see `Docs/compatibility.md` and the provider contracts).
///
/// Judging never rewrites a record: it returns findings, one per breach, in the order of ``rules``. A finding's
/// severity is its rule's: ``Severity/error`` for a breach of a confirmed (**[C]**) fact, ``Severity/warning``
/// for an inferred (**[I]**) rule or a deprecated or unknown value, ``Severity/info`` for a notable legal fact. A
/// finding also carries its rule's ``Basis``: whether it rests on confirmed facts only.
public enum CompatibilityChecker {
    /// Every check, in table order.
    static let checks: [Check] =
        urlChecks + squareRequestChecks + squareCallbackChecks + sumUpRequestChecks + sumUpCallbackChecks
        + iZettleChecks

    /// The published rule table, one entry per rule id, in the order findings are reported.
    public static let rules: [CompatibilityRule] = checks.map(\.rule)

    /// The rule with `id`, if there is one.
    public static func rule(id: String) -> CompatibilityRule? { rules.first { $0.id == id } }

    /// Judges a launch request against the contract of the version it claims (Square `version`, SumUp's
    /// declared app version, iZettle's path version).
    ///
    /// - Parameters:
    ///   - request: The request as the adapters read it.
    ///   - payment: The payment id, copied into every finding.
    ///   - position: The log position of the record, copied into every finding.
    /// - Returns: The findings, in the order of ``rules``; empty when the request is clean.
    public static func check(request: LaunchRequest, payment: String, position: UInt64) -> [Finding] {
        findings(payment: payment, position: position) { check in
            guard check.applies(to: request.provider), let evaluate = check.request else { return [] }
            return evaluate(request)
        }
    }

    /// Judges a callback, using the payment's request it answers for the rules that compare against it
    /// (Square `state` echo and API version, SumUp app version and `foreign-tx-id` echo, iZettle `reference`).
    ///
    /// - Parameters:
    ///   - callback: The callback as the adapters read it.
    ///   - request: The payment's launch request the callback answers (the one whose reference it echoes, else the
    ///     latest, as `EvidenceJudge` picks it); `nil` when unknown, which skips the rules that need it.
    ///     A request of another provider is reported (`callback.provider-mismatch`) and otherwise ignored.
    ///   - payment: The payment id, copied into every finding.
    ///   - position: The log position of the record, copied into every finding.
    /// - Returns: The findings, in the order of ``rules``; empty when the callback is clean.
    public static func check(
        callback: CallbackOutcome, request: LaunchRequest?, payment: String, position: UInt64
    ) -> [Finding] {
        let context = CallbackContext(callback: callback, declaredRequest: request)
        return findings(payment: payment, position: position) { check in
            guard check.applies(to: callback.provider), let evaluate = check.callback else { return [] }
            return evaluate(context)
        }
    }

    /// Runs `evaluate` over every check and wraps its messages into findings.
    private static func findings(
        payment: String, position: UInt64, _ evaluate: (Check) -> [String]
    ) -> [Finding] {
        checks.flatMap { check in
            evaluate(check).map { message in
                Finding(
                    payment: payment, position: position, severity: check.rule.severity, basis: check.rule.basis,
                    rule: check.rule.id, message: message)
            }
        }
    }
}
