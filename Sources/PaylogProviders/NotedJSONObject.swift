/// A JSON object read from text together with what the object alone would hide from the compatibility checker.
struct NotedJSONObject: Sendable {
    /// The object, numbers read as `JSONDecoder` reads them and the first of duplicate keys kept.
    var object: [String: JSONValue]
    /// The literal text of every number read as something else (`500.0` read as 500), by dotted path.
    var numberLiterals: [String: String]
    /// The keys met more than once in one object, in text order.
    var duplicates: [JSONValue.DuplicateKey]
    /// The text as written of each member of the object whose value is not a string (`{"order":1}`, `1.0`, `null`).
    var rawMembers: [String: String]
}
