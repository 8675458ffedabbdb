import Foundation

/// The parts of a URL of the plain shape `scheme://host/path?query`, read without Foundation when every character
/// is one RFC 3986 allows unescaped where it stands: what `URLComponents(string:encodingInvalidCharacters: false)`
/// gives for such a URL, at a fraction of the cost.
///
/// Launch URLs and callbacks nearly always have this shape, and reading them with `URLComponents` was about a
/// tenth of what `paylog ingest` spends parsing a line (`perf`, Docs/performance.md). Anything else — a user,
/// a port, a fragment, a `%` outside the query, a character that must be escaped, a malformed `%XX`, text that is
/// not ASCII — is not read here (``read(_:)`` answers nil) and ``ParsedURL`` asks Foundation, so the two readers
/// never disagree about a URL this one accepts (`PlainURLTests` checks that against Foundation on generated URLs).
struct PlainURL {
    /// The scheme as written.
    var scheme: String
    /// The host as written (letters, digits, `-._~`; possibly empty).
    var host: String
    /// The path as written (empty, or starting with `/`; no `%`).
    var path: String
    /// The text after the first `?`, still percent-encoded; nil when there is no `?`.
    var percentEncodedQuery: String?
    /// The query split at `&`, each item at its first `=` (no `=`: a nil value), still percent-encoded — as
    /// `URLComponents.percentEncodedQueryItems`, empty items included; empty when there is no query.
    var percentEncodedQueryItems: [URLQueryItem]

    /// What a byte may be, by position: bit 0 in a scheme after its first letter, bit 1 in the host, bit 2 in the
    /// path, bit 3 in the query (besides `%XX`).
    private static let classes: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        func mark(_ characters: String, _ bits: UInt8) {
            for byte in characters.utf8 { table[Int(byte)] |= bits }
        }
        let alphanumerics = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
        mark(alphanumerics, 0b1111)
        mark("+-.", 0b0001)
        // Unreserved in the host; unreserved, sub-delims, ":" and "@" (pchar) and "/" in the path and the query.
        mark("-._~", 0b1110)
        mark("!$&'()*+,;=:@/", 0b1100)
        mark("?", 0b1000)
        return table
    }()

    /// The URL's parts, or nil when `raw` is not of the plain shape or holds a character this reader leaves to
    /// Foundation.
    static func read(_ raw: String) -> PlainURL? {
        var raw = raw
        return raw.withUTF8 { bytes in read(bytes) }
    }

    private static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> PlainURL? {
        classes.withUnsafeBufferPointer { classes -> PlainURL? in
            let count = bytes.count
            guard count > 0, isLetter(bytes[0]) else { return nil }
            var index = 1
            while index < count, classes[Int(bytes[index])] & 0b0001 != 0 { index += 1 }
            let schemeEnd = index
            guard index + 2 < count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
                bytes[index + 2] == UInt8(ascii: "/")
            else { return nil }
            index += 3
            let hostStart = index
            while index < count, classes[Int(bytes[index])] & 0b0010 != 0 { index += 1 }
            let hostEnd = index
            let pathStart = index
            if index < count, bytes[index] == UInt8(ascii: "/") {
                while index < count, bytes[index] != UInt8(ascii: "?") {
                    guard classes[Int(bytes[index])] & 0b0100 != 0 else { return nil }
                    index += 1
                }
            }
            let pathEnd = index
            var query: (start: Int, end: Int)?
            if index < count {
                guard bytes[index] == UInt8(ascii: "?") else { return nil }
                index += 1
                let start = index
                while index < count {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "%") {
                        guard index + 2 < count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                            return nil
                        }
                        index += 3
                        continue
                    }
                    guard classes[Int(byte)] & 0b1000 != 0 else { return nil }
                    index += 1
                }
                query = (start, count)
            }
            func text(_ start: Int, _ end: Int) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            }
            var items: [URLQueryItem] = []
            if let query, query.start < query.end {
                var start = query.start
                while true {
                    var end = start
                    var equals: Int?
                    while end < query.end, bytes[end] != UInt8(ascii: "&") {
                        if equals == nil, bytes[end] == UInt8(ascii: "=") { equals = end }
                        end += 1
                    }
                    if let equals {
                        items.append(URLQueryItem(name: text(start, equals), value: text(equals + 1, end)))
                    } else {
                        items.append(URLQueryItem(name: text(start, end), value: nil))
                    }
                    guard end < query.end else { break }
                    start = end + 1
                }
            }
            return PlainURL(
                scheme: text(0, schemeEnd), host: text(hostStart, hostEnd), path: text(pathStart, pathEnd),
                percentEncodedQuery: query.map { text($0.start, $0.end) }, percentEncodedQueryItems: items)
        }
    }

    @inline(__always)
    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    @inline(__always)
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f"))
    }
}
