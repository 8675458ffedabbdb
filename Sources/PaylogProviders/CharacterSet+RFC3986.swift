import Foundation

extension CharacterSet {
    /// RFC 3986 unreserved characters. Built once: building a `CharacterSet` from a string costs more than
    /// percent-encoding a whole launch URL with it.
    static let rfc3986Unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
