import Foundation

/// A POST with an `Idempotency-Key` that was received but not yet answered: the time it was received, kept durably
/// before the request is handled, so that a retry after the server died in between records the same observation.
///
/// Without it a request that sent no `at` was observed "now" on each attempt: a callback's retry read as the same
/// callback delivered again, an app switch's as a second switch.
struct IdempotencyClaim: Sendable, Codable, Hashable {
    /// SHA-256 of method, path and body of the first request: a retry must match it.
    var fingerprint: String
    /// When the first attempt was received, µs since the epoch: the observed time of a request without `at`.
    var receivedAtMicroseconds: Int64
}
