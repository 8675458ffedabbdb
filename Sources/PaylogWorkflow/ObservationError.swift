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
    /// The line has a key its kind does not take (a misspelt or guessed name, e.g. `amount` for `amount_minor`):
    /// ignoring it would disable the check the intended field feeds. `known`: the keys the kind takes.
    case unknownField(String, kind: String, known: [String])

    /// What is wrong and what to do.
    public var description: String {
        switch self {
        case .notJSONObject(let reason): return "not a JSON object (\(reason))"
        case .missingField(let field, let kind) where kind == "reconcile":
            // A report line needs both the provider's transaction id and a key that finds the payment; saying only the
            // missing one sent people back and forth between the two.
            return "\"\(field)\" is required for kind \"reconcile\": a report line carries the provider's "
                + "\"transaction_id\" and a key that finds the payment (Square \"client_transaction_id\"; SumUp "
                + "\"foreign_tx_id\" or \"transaction_code\"; iZettle \"reference\")"
        case .missingField("kind", _):
            return "\"kind\" is required: one of request, app_switch, callback, reconcile or fail (`paylog reconcile` "
                + "reads report lines without it)"
        case .missingField(let field, let kind): return "\"\(field)\" is required for kind \"\(kind)\""
        case .invalidField(let field, let reason): return "\"\(field)\" \(reason)"
        case .unknownKind(let kind):
            return "unknown kind \"\(kind)\"; use request, app_switch, callback, reconcile or fail"
        case .unknownField(let field, let kind, let known):
            // Quoted with escapes, and cut: the key is the line's text, whatever it holds.
            let shown = field.count > 64 ? String(field.prefix(64)).debugDescription + "…" : field.debugDescription
            return "\(shown) is not a field of kind \"\(kind)\"; it takes \(known.joined(separator: ", ")) — "
                + "check the key's spelling (an unknown key is refused, not ignored)"
        }
    }
}
