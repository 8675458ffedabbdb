import Foundation

/// A JSON value decoded without loss: integers stay `Int64`, other numbers keep their decimal text,
/// booleans stay distinct from numbers.
public enum JSONValue: Sendable, Hashable, Decodable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number that is an integer fitting in 64 bits.
    case integer(Int64)
    /// Any other number, as text (see ``Numbers``).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// How ``parseObject(_:numbers:duplicateKeys:)`` reads a number that is not a plain integer fitting in
    /// `Int64` (one with a fraction or an exponent, or a larger integer).
    public enum Numbers: Sendable {
        /// Keep its text as written: ``number(_:)``.
        case exact
        /// As `JSONDecoder` reads it into a ``JSONValue``: an integral value that fits becomes ``integer(_:)``
        /// (`12.0`, `1e2`), anything else ``number(_:)`` with `Decimal`'s text (`1.50` → `1.5`).
        case asJSONDecoder
    }

    /// Which member an object keeps when a key appears twice.
    public enum DuplicateKeys: Sendable {
        /// The first, as `JSONDecoder` does.
        case firstWins
        /// The last, as `JSONSerialization` does.
        case lastWins
    }

    /// Reads `text` as a JSON object (RFC 8259, JSON whitespace around it allowed).
    ///
    /// - Throws: ``ParseError`` saying where and why the text is not JSON, or that it is JSON but not an object.
    public static func parseObject(
        _ text: String, numbers: Numbers, duplicateKeys: DuplicateKeys
    ) throws(ParseError) -> [String: JSONValue] {
        let value: JSONValue
        do {
            value = try JSONParser.parse(text, numbers: numbers, duplicateKeys: duplicateKeys)
        } catch {
            throw ParseError(offset: error.offset, reason: error.reason)
        }
        guard case .object(let object) = value else { throw ParseError(offset: 0, reason: ParseError.notAnObject) }
        return object
    }

    /// Why a text is not a JSON object.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The byte offset in the text where reading stopped.
        public var offset: Int
        /// What was wrong there.
        public var reason: String

        /// The reason given for a text that is JSON but not an object.
        public static let notAnObject = "the text is JSON but not an object"

        /// The reason and where.
        public var description: String { "\(reason) (at byte \(offset))" }
    }

    /// `text`, a JSON number token, read as `JSONDecoder` reads a number into a ``JSONValue``.
    static func decodedByFoundation(number text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    /// Decodes a value the way ``JSONValue/Numbers/asJSONDecoder`` describes: the reference the fast reader is
    /// checked against.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Decimal.self) {
            self = .number("\(value)")
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Decodes `text` as a JSON object as `JSONDecoder` would (``Numbers/asJSONDecoder``, the first of
    /// duplicate keys kept); `nil` when it is not one.
    static func object(from text: String) -> [String: JSONValue]? {
        try? parseObject(text, numbers: .asJSONDecoder, duplicateKeys: .firstWins)
    }

    /// Scalars as text (`true`, `500`, `12.5`, the string itself, `null`); containers in a compact form.
    var text: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .number(let text), .string(let text): return text
        case .array(let values): return values.map(\.text).joined(separator: ",")
        case .object(let object):
            return "{" + object.keys.sorted().map { "\($0):\(object[$0]!.text)" }.joined(separator: ",") + "}"
        }
    }

    /// As JSON text, for messages: a string in quotes (not escaped), anything else as ``text``.
    var jsonText: String {
        if case .string(let text) = self { return "\"" + text + "\"" }
        return text
    }

    /// Flattens into dotted paths: objects recurse (`amount_money.amount`), arrays are comma-joined, an empty object
    /// is recorded as `{}` so its key is still seen. A `null` member is left out, as absent, and its path added to
    /// `nulls`: read as the text "null" it became a transaction id, a currency code, an error code.
    func flatten(at path: String, into fields: inout [String: String], nulls: inout [String]) {
        switch self {
        case .object(let object) where !object.isEmpty:
            for (key, value) in object {
                value.flatten(at: path.isEmpty ? key : path + "." + key, into: &fields, nulls: &nulls)
            }
        case .null:
            if !path.isEmpty { nulls.append(path) }
        default:
            if !path.isEmpty { fields[path] = text }
        }
    }

    /// True for a string.
    var isString: Bool {
        if case .string = self { true } else { false }
    }

    /// The member `key` of an object, else `nil`.
    subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }
}
