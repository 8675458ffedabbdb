import Foundation

/// Serializes the JSON objects paylog prints (`--json`) and serves (HTTP): sorted keys, unescaped slashes, so the
/// same value always gives the same bytes.
public enum JSONText {
    /// A `JSONSerialization` object (dictionaries, arrays, strings, numbers, `NSNull`) as compact JSON text.
    public static func encode(_ object: Any) throws -> String {
        String(decoding: try data(object), as: UTF8.self)
    }

    /// A `JSONSerialization` object as compact JSON bytes: the bytes `JSONSerialization` writes, by
    /// ``SortedJSONWriter`` where it can, else by `JSONSerialization` itself.
    public static func data(_ object: Any) throws -> Data {
        if let bytes = SortedJSONWriter.bytes(object) { return Data(bytes) }
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// `text` as a JSON string literal, its bytes kept exactly (no Unicode normalization): `"` and `\` escaped, and
    /// every control character below U+0020, as `JSONSerialization` writes them; `/` is not escaped.
    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(text.utf8.count + 2)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }

    /// An `Encodable` value as compact JSON text with sorted keys.
    public static func encode<T: Encodable>(encodable value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
