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
/// {"kind":"reconcile","at":…,"provider":…,"transaction_id":…,"client_transaction_id"|"foreign_tx_id"|"transaction_code"|"reference":…,"amount_minor":…?,"currency":…?,"payment":ID?}
/// {"kind":"fail","payment":ID,"at":…,"reason":…}
/// ```
///
/// A line with any other key is refused (``ObservationError/unknownField(_:kind:known:)``).
public enum Observation: Sendable, Hashable {
    /// The keys each kind takes, in the order the format lists them (`kind` is optional only where a default kind
    /// applies, as in `paylog reconcile`).
    public static let fieldNames: [String: [String]] = [
        "request": ["kind", "payment", "at", "url", "app_version"],
        "app_switch": ["kind", "payment", "at", "note"],
        "callback": ["kind", "payment", "at", "url", "provider"],
        "reconcile": [
            "kind", "at", "provider", "transaction_id", "client_transaction_id", "foreign_tx_id", "transaction_code",
            "reference", "amount_minor", "currency", "payment",
        ],
        "fail": ["kind", "payment", "at", "reason"],
    ]

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
        let fields = ObservationFields(object: object)
        guard let kind = try fields.string("kind") ?? defaultKind else { throw .missingField("kind", kind: "any") }
        fields.kind = kind
        // A key the kind does not take is refused, not ignored: `"amount":2500` for `amount_minor`, or a misspelt
        // `payment_id`, would otherwise pass as a line without that field, and disable the check it feeds.
        if let keys = Self.fieldNames[kind], let unknown = object.keys.filter({ !keys.contains($0) }).min() {
            throw .unknownField(unknown, kind: kind, known: keys)
        }
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
                amount: amount, rawLine: line, payment: try fields.string("payment"))
            if let payment = line.payment { try fields.checkPaymentID(payment) }
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
