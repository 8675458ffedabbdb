import PaylogDomain
import PaylogProviders

extension PaymentWorkflow {
    /// `outcome`, the callback at `url` read on its own, or, when that does not decide it, read again against the
    /// payment's launch requests (`requests`, newest first; asked for only then):
    ///
    /// - An iZettle callback, or a SumUp one from an old app without `smp-status`, that carries no error and no
    ///   `paylog_outcome` marker says nothing of its outcome; which of the request's callback URLs it was opened on
    ///   does (``PaylogProviders/CallbackHint/launch(_:)``: iZettle's x-success / x-failure, SumUp's callbacksuccess
    ///   / callbackfail). Requests are tried from the one whose reference the callback echoes, then newest first,
    ///   until one decides.
    /// - A Square success without `transaction_id` is an offline card payment unless the request allowed no card
    ///   tender: a `CASH` or `OTHER` payment may lack the id because it completes asynchronously (contract §1b).
    ///
    /// Without this, such callbacks were recorded with an unknown outcome (the payment left `requested`), and cash
    /// successes as offline payments that then expired to `failed`.
    static func reread(_ outcome: CallbackOutcome, url: String, requests: () -> [LaunchRequest]) -> CallbackOutcome {
        let undetermined = outcome.status == .invalid("") && outcome.provider != .square
        let maybeNotCard = outcome.provider == .square && outcome.isOffline
        guard undetermined || maybeNotCard else { return outcome }
        for request in ordered(requests(), for: outcome) {
            guard let reread = try? Providers.parseCallback(url, provider: outcome.provider, hint: .launch(request)) else {
                continue
            }
            // For Square, the request it answers decides (its tender types); for the others, the first that tells.
            if maybeNotCard || reread.status != .invalid("") { return reread }
        }
        return outcome
    }

    /// `requests` of `outcome`'s provider, the ones whose reference the callback echoes first, then the others, each
    /// group in the order given.
    static func ordered(_ requests: [LaunchRequest], for outcome: CallbackOutcome) -> [LaunchRequest] {
        let same = requests.filter { $0.provider == outcome.provider }
        guard let echo = outcome.reference else { return same }
        return same.filter { $0.reference == echo } + same.filter { $0.reference != echo }
    }
}
