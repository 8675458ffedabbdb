import PaylogDomain
import PaylogProviders
import PaylogStore

/// Typed access to the fields of a parsed observation line (``Observation/parse(_:defaultKind:)``), with errors that
/// name the field.
final class ObservationFields {
    let object: [String: JSONValue]
    var kind = ""

    init(object: [String: JSONValue]) { self.object = object }

    func string(_ name: String) throws(ObservationError) -> String? {
        switch object[name] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw .invalidField(name, reason: "must be a string")
        }
    }

    func required(_ name: String) throws(ObservationError) -> String {
        guard let text = try string(name), !text.isEmpty else { throw .missingField(name, kind: kind) }
        return text
    }

    func integer(_ name: String) throws(ObservationError) -> Int64? {
        switch object[name] {
        case nil, .null?: return nil
        // Only a plain integer token that fits: not `12.0`, `1e2`, a boolean or a string.
        case .integer(let value)?: return value
        case .number(let text)? where Self.isWholeNumber(text):
            // A whole number that does not fit: say so, not "must be an integer".
            throw .invalidField(name, reason: "is \(text), out of range: an amount in minor units is at most 9223372036854775807")
        default: throw .invalidField(name, reason: "must be an integer number of minor units")
        }
    }

    /// Whether `text` (a JSON number's literal) is written as a whole number: digits, with an optional `-`.
    private static func isWholeNumber(_ text: String) -> Bool {
        let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
        return !digits.isEmpty && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    func payment() throws(ObservationError) -> String {
        let id = try required("payment")
        try checkPaymentID(id)
        return id
    }

    func checkPaymentID(_ id: String) throws(ObservationError) {
        do { _ = try PaymentID(id) } catch { throw .invalidField("payment", reason: "is invalid: \(error)") }
    }

    func at() throws(ObservationError) -> Timestamp {
        let text = try required("at")
        guard let time = Timestamp(rfc3339: text) else {
            if let advice = Timestamp.refusalAdvice(text) {
                throw .invalidField("at", reason: "\(text.debugDescription) cannot be recorded: \(advice)")
            }
            throw .invalidField("at", reason: "is not an RFC 3339 time like 2026-11-22T09:15:02Z (got \(text.debugDescription))")
        }
        return time
    }

    func provider(required: Bool) throws(ObservationError) -> Provider? {
        guard let text = try string("provider") else {
            if required { throw .missingField("provider", kind: kind) }
            return nil
        }
        guard let provider = Provider(rawValue: text.lowercased()) else {
            throw .invalidField("provider", reason: "must be square, sumup or izettle (got \(text.debugDescription))")
        }
        return provider
    }
}
