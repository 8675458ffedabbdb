/// A failed payment's provider error code as the analytics count it: the exact bytes the provider sent, or no code.
///
/// Keyed by bytes, not by `String` equality: two codes that differ only in Unicode normalization (`Décliné` as
/// NFC and as NFD) are different evidence and are counted apart. The no-code bucket is a case of its own, so a
/// provider code that is literally `none` is not merged into it.
public struct FailureCode: Sendable, Hashable, Comparable {
    /// The code's UTF-8 bytes, exactly as recorded; nil when the failure had no provider code (our timeout, an
    /// expiry — even when an earlier callback carried one).
    public let utf8: [UInt8]?

    /// The failure code of a payment whose recorded error code is `code` (nil: none).
    public init(_ code: String?) {
        utf8 = code.map { Array($0.utf8) }
    }

    /// Provider codes by their bytes; the no-code bucket after every provider code.
    public static func < (lhs: FailureCode, rhs: FailureCode) -> Bool {
        switch (lhs.utf8, rhs.utf8) {
        case (let left?, let right?): return left.lexicographicallyPrecedes(right)
        case (.some, nil): return true
        case (nil, _): return false
        }
    }

    /// The code in the text form of the `failure_codes` column (CSV, table, and the keys of the JSON object): the
    /// bare word `none` for no provider code; a provider code with `\`, `:` and `;` each preceded by `\`, and a
    /// provider code that is literally `none` written `\none`. Reading it back: a `\` makes the character after it
    /// literal, and only the bare `none` (without a backslash) is the no-code bucket. Docs/analytics.md documents it.
    public var text: String {
        guard let utf8 else { return "none" }
        let backslash = UInt8(ascii: "\\")
        var escaped: [UInt8] = []
        escaped.reserveCapacity(utf8.count + 1)
        if utf8.elementsEqual("none".utf8) { escaped.append(backslash) }
        for byte in utf8 {
            if byte == backslash || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ";") { escaped.append(backslash) }
            escaped.append(byte)
        }
        return String(decoding: escaped, as: UTF8.self)
    }
}
