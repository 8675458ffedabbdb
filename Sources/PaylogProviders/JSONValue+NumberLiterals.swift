extension JSONValue {
    /// The object in `text` exactly as ``object(from:)`` reads it, and the literal text of every number it reads
    /// as something else, by dotted path: `{"amount_money":{"amount":500.0}}` reads `amount` as the integer 500
    /// and gives `["amount_money.amount": "500.0"]`. A reading that turned `500.0` into `500` would otherwise hide
    /// what was on the wire from the compatibility checker. `nil` when `text` is not a JSON object.
    ///
    /// The text is parsed once, keeping numbers exact; only an object holding a number that is not a plain integer
    /// (rare: Square's amounts are integers) is walked again to read those numbers as `JSONDecoder` does.
    static func objectNotingNumberLiterals(from text: String) -> (object: [String: JSONValue], literals: [String: String])? {
        guard let exact = try? parseObject(text, numbers: .exact, duplicateKeys: .firstWins) else { return nil }
        var literals: [String: String] = [:]
        guard exact.values.contains(where: \.holdsNumberText) else { return (exact, literals) }
        var object = exact
        for (key, value) in exact where value.holdsNumberText {
            guard let read = value.readingNumbersAsJSONDecoder(at: key, literals: &literals) else { return nil }
            object[key] = read
        }
        return (object, literals)
    }

    /// True when this value is, or holds, a number kept as text.
    private var holdsNumberText: Bool {
        switch self {
        case .number: true
        case .array(let values): values.contains(where: \.holdsNumberText)
        case .object(let members): members.values.contains(where: \.holdsNumberText)
        case .null, .bool, .integer, .string: false
        }
    }

    /// This value with every number kept as text read as `JSONDecoder` reads it (``Numbers/asJSONDecoder``),
    /// noting in `literals` under `path` the text of each that reads differently; nil when one cannot be read.
    /// An array's items share its path, as ``flatten(at:into:)`` shows them under it.
    private func readingNumbersAsJSONDecoder(at path: String, literals: inout [String: String]) -> JSONValue? {
        switch self {
        case .number(let text):
            guard let read = JSONValue.decodedByFoundation(number: text) else { return nil }
            if read != self { literals[path] = text }
            return read
        case .array(let values):
            var items = values
            for (index, value) in values.enumerated() where value.holdsNumberText {
                guard let read = value.readingNumbersAsJSONDecoder(at: path, literals: &literals) else { return nil }
                items[index] = read
            }
            return .array(items)
        case .object(let members):
            var object = members
            for (key, value) in members where value.holdsNumberText {
                guard let read = value.readingNumbersAsJSONDecoder(at: path + "." + key, literals: &literals) else { return nil }
                object[key] = read
            }
            return .object(object)
        case .null, .bool, .integer, .string:
            return self
        }
    }
}
