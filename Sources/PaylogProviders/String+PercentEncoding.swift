import Foundation

extension String {
    /// Percent-encodes everything except RFC 3986 unreserved characters (`A–Z a–z 0–9 - . _ ~`), so that
    /// `& = + / ? # :` in a value can never be mistaken for structure, whichever decoder the provider uses.
    var percentEncodedStrictly: String {
        // Every String is representable with this allowed set, so the call cannot fail; fall back to self anyway.
        addingPercentEncoding(withAllowedCharacters: .rfc3986Unreserved) ?? self
    }

    /// The text with `%XX` escapes decoded, or nil when an escape is malformed or the bytes are not UTF-8: what
    /// Foundation's `removingPercentEncoding` answers, without its detour through UTF-16 and CFString, which
    /// was most of the time `paylog ingest` spent recording a line (`perf`, `paylog bench --scenario ingest`).
    var percentDecoded: String? {
        var text = self
        return text.withUTF8 { bytes -> String? in
            guard let first = bytes.firstIndex(of: UInt8(ascii: "%")) else { return String(decoding: bytes, as: UTF8.self) }
            var decoded = [UInt8](bytes[..<first])
            decoded.reserveCapacity(bytes.count)
            var index = first
            while index < bytes.count {
                let byte = bytes[index]
                if byte != UInt8(ascii: "%") {
                    decoded.append(byte)
                    index += 1
                    continue
                }
                guard index + 2 < bytes.count, let high = Self.hexValue(bytes[index + 1]), let low = Self.hexValue(bytes[index + 2])
                else { return nil }
                decoded.append(high << 4 | low)
                index += 3
            }
            return String(validating: decoded, as: UTF8.self)
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
