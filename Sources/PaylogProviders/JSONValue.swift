import Foundation

/// A JSON value decoded without loss: integers stay `Int64`, other numbers keep their decimal text,
/// booleans stay distinct from numbers.
enum JSONValue: Sendable, Hashable, Decodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
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

    /// Decodes `text` as a JSON object; `nil` when it is not one.
    static func object(from text: String) -> [String: JSONValue]? {
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
            return nil
        }
        return object
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

    /// Flattens into dotted paths: objects recurse (`amount_money.amount`), arrays are comma-joined,
    /// an empty object is recorded as `{}` so its key is still seen.
    func flatten(at path: String, into fields: inout [String: String]) {
        switch self {
        case .object(let object) where !object.isEmpty:
            for (key, value) in object {
                value.flatten(at: path.isEmpty ? key : path + "." + key, into: &fields)
            }
        default:
            if !path.isEmpty { fields[path] = text }
        }
    }

    /// The member `key` of an object, else `nil`.
    subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }
}
