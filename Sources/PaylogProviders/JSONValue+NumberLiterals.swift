extension JSONValue {
    /// The object in `text` exactly as ``object(from:)`` reads it, the literal text of every number it reads as
    /// something else, by dotted path (`{"amount_money":{"amount":500.0}}` reads `amount` as the integer 500 and
    /// notes `["amount_money.amount": "500.0"]`), every key met twice in one object, and the text as written of its
    /// members that are not strings. A reading that turned `500.0` into `500`, or silently dropped a second
    /// `"status"`, would otherwise hide what was on the wire from the compatibility checker. `nil` when `text` is not
    /// a JSON object.
    ///
    /// The text is parsed once, keeping numbers exact; only an object holding a number that is not a plain integer
    /// (rare: Square's amounts are integers) is walked again to read those numbers as `JSONDecoder` does.
    static func notedObject(from text: String) -> NotedJSONObject? {
        guard let parsed = try? JSONParser.parseNoting(text), case .object(let exact) = parsed.value else { return nil }
        var noted = NotedJSONObject(
            object: exact, numberLiterals: [:], duplicates: parsed.duplicates, rawMembers: parsed.rawMembers)
        guard exact.values.contains(where: \.holdsNumberText) else { return noted }
        for (key, value) in exact where value.holdsNumberText {
            guard let read = value.readingNumbersAsJSONDecoder(at: key, literals: &noted.numberLiterals) else { return nil }
            noted.object[key] = read
        }
        return noted
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
