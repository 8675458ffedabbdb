/// Escapes only what must be escaped in a URL that was written with raw characters (a space, `{`, `"`, `|`, `\`,
/// text that is not ASCII, a `%` that starts no `%XX`), leaving every valid `%XX` escape as it is: the text a
/// lenient reading of such a URL parses.
///
/// `URLComponents(string:encodingInvalidCharacters: true)` is not used for this, because on Linux it escapes every
/// `%` as well once it escapes anything, so a `foreign-tx-id=ord%2F1` beside a raw space read back as `ord%2F1`
/// (the echo no longer matched its request, and the callback found no payment). Reading a URL leniently must give
/// the values the sender meant: each `%XX` decoded once, each raw character as itself.
enum LenientURLEscaping {
    /// `raw` with each byte RFC 3986 does not allow where it stands percent-encoded (`%XX`, upper-case hex).
    ///
    /// Kept as they are: letters, digits, `-._~`, the delimiters `:/?#@!$&'()*+,;=`, `%` followed by two hex
    /// digits, and the `[` `]` enclosing an IPv6 host (`http://[::1]:8080/…`). Escaped: any other byte (UTF-8 text
    /// byte by byte), a `%` not followed by two hex digits, any other `[` and `]`, and every `#` after the first (the
    /// fragment holds no `#`).
    static func escape(_ raw: String) -> String {
        let bytes = Array(raw.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var seenFragment = false
        let hostBrackets = ipv6HostBrackets(bytes)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if hostBrackets.contains(index) {
                out.append(byte)
                index += 1
                continue
            }
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) {
                out.append(contentsOf: bytes[index...(index + 2)])
                index += 3
                continue
            }
            if byte == UInt8(ascii: "#"), !seenFragment {
                seenFragment = true
                out.append(byte)
            } else if isAllowed(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0x0F))
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The offsets of the `[` and `]` enclosing an IPv6 host: the host (after the scheme's `://` and any
    /// `userinfo@`, up to the first `/`, `?` or `#`) starts with `[` and holds a `]`. Empty for any other URL.
    private static func ipv6HostBrackets(_ bytes: [UInt8]) -> Set<Int> {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon + 2 < bytes.count,
            bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/"),
            !bytes[..<colon].contains(where: { "/?#".utf8.contains($0) })
        else { return [] }
        let start = colon + 3
        let end = bytes[start...].firstIndex(where: { "/?#".utf8.contains($0) }) ?? bytes.count
        let host = (bytes[start..<end].lastIndex(of: UInt8(ascii: "@")).map { $0 + 1 }) ?? start
        guard host < end, bytes[host] == UInt8(ascii: "["),
            let close = bytes[host..<end].firstIndex(of: UInt8(ascii: "]"))
        else { return [] }
        return [host, close]
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "-._~:/?@!$&'()*+,;=".utf8.contains(byte)
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
