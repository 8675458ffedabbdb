import Foundation
import PaylogDomain
import PaylogProviders
import PaylogStore

/// One line of `paylog ingest` input, understood but not yet routed or decided.
///
/// ```
/// {"kind":"request","payment":ID,"at":RFC3339,"url":LAUNCH_URL,"app_version":"1.53.2"?}
/// {"kind":"app_switch","payment":ID,"at":…,"note":…?}
/// {"kind":"callback","payment":ID?,"at":…,"url":CALLBACK_URL,"provider":…?}
/// {"kind":"reconcile","at":…,"provider":…,"transaction_id":…,"client_transaction_id"|"foreign_tx_id"|"transaction_code"|"reference":…,"amount_minor":…?,"currency":…?}
/// {"kind":"fail","payment":ID,"at":…,"reason":…}
/// ```
public enum Observation: Sendable, Hashable {
    /// A launch URL built or seen.
    case request(payment: String, at: Timestamp, url: String, appVersion: String?)
    /// The shop's app switched to the provider's app.
    case appSwitch(payment: String, at: Timestamp, note: String)
    /// A callback URL came back.
    case callback(payment: String?, at: Timestamp, url: String, provider: Provider?)
    /// A provider report line.
    case reconcile(at: Timestamp, line: ReconciliationLine)
    /// The shop gave up.
    case fail(payment: String, at: Timestamp, reason: String)

    /// Parses one JSON line. `defaultKind` applies when the line has no `kind` (used by `paylog reconcile`).
    public static func parse(_ line: String, defaultKind: String? = nil) throws(ObservationError) -> Observation {
        // Read as `JSONSerialization` read it before (a duplicate key's last value wins, numbers other than plain
        // integers are not integers), by a reader a fraction of its cost (`JSONParser`).
        let object: [String: JSONValue]
        do {
            object = try JSONValue.parseObject(line, numbers: .exact, duplicateKeys: .lastWins)
        } catch {
            if error.reason == JSONValue.ParseError.notAnObject {
                throw .notJSONObject("the line is JSON but not an object")
            }
            throw .notJSONObject("the line is not valid JSON: \(error)")
        }
        let fields = Fields(object: object)
        guard let kind = try fields.string("kind") ?? defaultKind else { throw .missingField("kind", kind: "any") }
        fields.kind = kind
        switch kind {
        case "request":
            return .request(
                payment: try fields.payment(), at: try fields.at(), url: try fields.required("url"),
                appVersion: try fields.string("app_version"))
        case "app_switch":
            return .appSwitch(payment: try fields.payment(), at: try fields.at(), note: try fields.string("note") ?? "")
        case "callback":
            let payment = try fields.string("payment")
            if let payment { try fields.checkPaymentID(payment) }
            return .callback(payment: payment, at: try fields.at(), url: try fields.required("url"), provider: try fields.provider(required: false))
        case "reconcile":
            let provider = try fields.provider(required: true)!
            var amount: Money?
            if let minor = try fields.integer("amount_minor") {
                guard let code = try fields.string("currency") else { throw .missingField("currency", kind: kind) }
                do { amount = Money(minorUnits: minor, currency: try CurrencyCode(code)) } catch {
                    throw .invalidField("currency", reason: "is not an ISO 4217 code: \(error)")
                }
            }
            let line = ReconciliationLine(
                provider: provider, transactionID: try fields.required("transaction_id"),
                clientTransactionID: try fields.string("client_transaction_id"),
                foreignTransactionID: try fields.string("foreign_tx_id"),
                transactionCode: try fields.string("transaction_code"), reference: try fields.string("reference"),
                amount: amount, rawLine: line)
            guard !line.matchKeys.isEmpty else {
                let key = switch provider {
                case .square: "client_transaction_id"
                case .sumup: "foreign_tx_id\" or \"transaction_code"
                case .izettle: "reference"
                }
                throw .missingField(key, kind: kind)
            }
            return .reconcile(at: try fields.at(), line: line)
        case "fail":
            return .fail(payment: try fields.payment(), at: try fields.at(), reason: try fields.required("reason"))
        default:
            throw .unknownKind(kind)
        }
    }
}

/// Typed access to a parsed JSON object's fields, with errors that name the field.
private final class Fields {
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
            if let advice = Timestamp.leapSecondAdvice(text) {
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
