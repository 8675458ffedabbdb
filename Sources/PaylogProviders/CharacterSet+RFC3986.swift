import Foundation

extension CharacterSet {
    /// RFC 3986 unreserved characters.
    static var rfc3986Unreserved: CharacterSet {
        CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    }
}
