import Foundation

extension String {
    /// Percent-encodes everything except RFC 3986 unreserved characters (`A–Z a–z 0–9 - . _ ~`), so that
    /// `& = + / ? # :` in a value can never be mistaken for structure, whichever decoder the provider uses.
    var percentEncodedStrictly: String {
        // Every String is representable with this allowed set, so the call cannot fail; fall back to self anyway.
        addingPercentEncoding(withAllowedCharacters: .rfc3986Unreserved) ?? self
    }
}
