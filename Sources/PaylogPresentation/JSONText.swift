import Foundation

/// Serializes the JSON objects paylog prints (`--json`) and serves (HTTP): sorted keys, unescaped slashes, so the
/// same value always gives the same bytes.
public enum JSONText {
    /// A `JSONSerialization` object (dictionaries, arrays, strings, numbers, `NSNull`) as compact JSON text.
    public static func encode(_ object: Any) throws -> String {
        String(decoding: try data(object), as: UTF8.self)
    }

    /// A `JSONSerialization` object as compact JSON bytes.
    public static func data(_ object: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// An `Encodable` value as compact JSON text with sorted keys.
    public static func encode<T: Encodable>(encodable value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
