import PaylogDomain

/// Outside knowledge about which callback URL the provider opened.
///
/// An iZettle callback does not say whether it reports success, so the rule is, in order:
/// an error parameter (`errorCode`, `error`, `errorMessage`) means failure; otherwise our builder's
/// `paylog_outcome` marker decides; otherwise this hint; otherwise the status is `.invalid("")`.
/// SumUp uses the marker and hint only when an old app sent no `smp-status` (and to note a status that contradicts
/// the URL opened). Square's status is always in its JSON; it reads a `.launch` hint only for the request's tender
/// types (a success without `transaction_id` is offline only when a card tender was allowed).
public enum CallbackHint: Sendable, Hashable {
    /// The caller knows the success URL was opened (e.g. it registered distinct paths).
    case openedSuccessURL
    /// The caller knows the failure URL was opened.
    case openedFailureURL
    /// Match the callback against this launch request's success and failure URLs: the callback matches a
    /// URL when scheme, host and path are equal and every query item of that URL recurs with the same value.
    /// A callback matching both URLs, or neither, decides nothing.
    case launch(LaunchRequest)
}
