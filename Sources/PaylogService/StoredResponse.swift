import Foundation

/// The first answer to a POST with an `Idempotency-Key`, kept so a retry gets the same bytes back.
struct StoredResponse: Sendable, Codable, Hashable {
    /// SHA-256 of method, path and body of the first request: a retry must match it.
    var fingerprint: String
    /// The HTTP status answered.
    var status: Int
    /// The JSON body answered.
    var body: Data
    /// Extra headers answered (e.g. `Location`).
    var headers: [String: String]
    /// When the first request was answered (RFC 3339).
    var answeredAt: String
}
