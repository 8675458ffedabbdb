import PaylogDomain

/// A Square `state` as sent: a JSON string, or another JSON value kept as its text (`{"order":1}`, `42`).
///
/// Two states are equal only when both are strings or both are JSON values, with the same text: `42` is not an
/// echo of `"42"`, and `{"order":2}` is not one of `{"order":1}`.
struct SquareState: Equatable, CustomStringConvertible {
    /// The string, or the JSON text of a state that is not a string.
    let text: String
    /// True when the state was not a JSON string.
    let isJSON: Bool

    /// The state `text` from a record's fields, with that record's parse notes telling whether it was a string.
    init(_ text: String, notes: [ParseNote]) {
        self.text = text
        isJSON = notes.contains(.stateNotString(text))
    }

    /// `"text"` for a string; the JSON text and what it is for any other value.
    var description: String { isJSON ? "\(text) (\(JSONKind.phrase(for: text)), not a string)" : "\"\(text)\"" }
}
