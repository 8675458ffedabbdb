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
            return Self.percentDecoding(bytes, from: first).flatMap { String(validating: $0, as: UTF8.self) }
        }
    }

    /// The bytes the text's `%XX` escapes stand for, whether or not they are UTF-8 (`ab%FF` → `61 62 FF`); nil when
    /// an escape is malformed. A value kept percent-encoded because it is not UTF-8 text (a parse note
    /// `undecodablePercentEncoding`) is judged by these bytes, not by its escape text.
    public var percentDecodedBytes: [UInt8]? {
        var text = self
        return text.withUTF8 { bytes in Self.percentDecoding(bytes, from: bytes.firstIndex(of: UInt8(ascii: "%")) ?? bytes.count) }
    }

    /// `bytes` with the escapes from `first` on (the first `%`, or the end) decoded; nil when one is malformed.
    private static func percentDecoding(_ bytes: UnsafeBufferPointer<UInt8>, from first: Int) -> [UInt8]? {
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
            guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            else { return nil }
            decoded.append(high << 4 | low)
            index += 3
        }
        return decoded
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
