/// The kind of a JSON value given as its text, for messages: `the JSON number 1.0`, `the JSON string "yes"`.
enum JSONKind {
    /// "the JSON number", "the JSON string", "the JSON boolean", "the JSON array", "the JSON object" or "the JSON value",
    /// from the first character of `text`, a JSON value as written.
    static func phrase(for text: String) -> String {
        guard let first = text.first else { return "the JSON value" }
        switch first {
        case "\"": return "the JSON string"
        case "-", "0"..."9": return "the JSON number"
        case "t", "f": return "the JSON boolean"
        case "[": return "the JSON array"
        case "{": return "the JSON object"
        default: return "the JSON value"
        }
    }
}
