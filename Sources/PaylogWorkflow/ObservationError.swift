/// Why one observation line could not be understood. The line is reported and skipped; others still count.
public enum ObservationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line is not a JSON object.
    case notJSONObject(String)
    /// A required field is missing.
    case missingField(String, kind: String)
    /// A field has the wrong type or an unusable value.
    case invalidField(String, reason: String)
    /// `kind` is not one of the known kinds.
    case unknownKind(String)

    /// What is wrong and what to do.
    public var description: String {
        switch self {
        case .notJSONObject(let reason): return "not a JSON object (\(reason))"
        case .missingField(let field, let kind): return "\"\(field)\" is required for kind \"\(kind)\""
        case .invalidField(let field, let reason): return "\"\(field)\" \(reason)"
        case .unknownKind(let kind):
            return "unknown kind \"\(kind)\"; use request, app_switch, callback, reconcile or fail"
        }
    }
}
