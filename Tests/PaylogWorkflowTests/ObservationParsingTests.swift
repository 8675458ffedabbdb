import PaylogWorkflow
import Testing

/// A line that cannot be read names what is wrong with it, in the terms of the line itself.
@Suite("Observation lines: reasons")
struct ObservationParsingTests {
    /// The reason `line` is refused (nil when it parses).
    static func reason(_ line: String, defaultKind: String? = nil) -> String? {
        do {
            _ = try Observation.parse(line, defaultKind: defaultKind)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("a line without kind says which kinds there are, not \"required for kind any\"")
    func missingKind() {
        for line in [#"{"payment":"x","at":"2026-11-22T08:00:00Z"}"#, #"{"kind":null,"payment":"x","at":"2026-11-22T08:00:00Z"}"#] {
            let reason = Self.reason(line) ?? ""
            #expect(reason.hasPrefix("\"kind\" is required: one of request") && !reason.contains("\"any\""), "\(reason)")
        }
    }

    @Test("an amount too large for minor units says it is out of range; a fraction is still not an integer")
    func amountOutOfRange() {
        let line = #"{"at":"2026-11-22T08:00:00Z","provider":"square","transaction_id":"T","client_transaction_id":"C","amount_minor":AMOUNT,"currency":"USD"}"#
        for amount in ["9223372036854775808", "-123456789012345678901234567890"] {
            let reason = Self.reason(line.replacingOccurrences(of: "AMOUNT", with: amount), defaultKind: "reconcile") ?? ""
            #expect(reason.contains("out of range") && reason.contains(amount), "\(reason)")
        }
        let fraction = Self.reason(line.replacingOccurrences(of: "AMOUNT", with: "12.5"), defaultKind: "reconcile") ?? ""
        #expect(fraction.contains("must be an integer number of minor units"), "\(fraction)")
        #expect(Self.reason(line.replacingOccurrences(of: "AMOUNT", with: "9223372036854775807"), defaultKind: "reconcile") == nil)
    }

    @Test("a leap second is refused with advice")
    func leapSecond() {
        let reason = Self.reason(#"{"kind":"app_switch","payment":"x","at":"2016-12-31T23:59:60Z"}"#) ?? ""
        #expect(reason.contains("leap second"), "\(reason)")
    }

    @Test("a key the line's kind does not take is refused, naming the key and every key the kind takes", arguments: [
        // `amount` for `amount_minor`: ignored, the report line matched with no amount check at all.
        (#"{"at":"2026-11-22T08:00:00Z","provider":"square","transaction_id":"T1","client_transaction_id":"C","amount":2500,"currency":"USD"}"#,
         "reconcile" as String?, "amount", "reconcile"),
        (#"{"kind":"fail","payment_id":"p1","at":"2026-11-22T08:00:00Z","reason":"x"}"#, nil, "payment_id", "fail"),
        (#"{"kind":"callback","at":"2026-11-22T08:00:00Z","url":"myshop://cb","app_version":"1.88.0"}"#, nil, "app_version", "callback"),
        (#"{"kind":"request","payment":"p1","at":"2026-11-22T08:00:00Z","url":"sumupmerchant://pay/1.0","note":"n"}"#, nil, "note", "request"),
        (#"{"kind":"app_switch","payment":"p1","at":"2026-11-22T08:00:00Z","reason":"r"}"#, nil, "reason", "app_switch"),
    ])
    func unknownKey(line: String, defaultKind: String?, key: String, kind: String) {
        let reason = Self.reason(line, defaultKind: defaultKind) ?? "accepted"
        #expect(reason.hasPrefix("\"\(key)\" is not a field of kind \"\(kind)\""), "\(reason)")
        let known = [
            "request": "kind, payment, at, url, app_version", "app_switch": "kind, payment, at, note",
            "callback": "kind, payment, at, url, provider", "fail": "kind, payment, at, reason",
            "reconcile": "kind, at, provider, transaction_id, client_transaction_id, foreign_tx_id, transaction_code, reference, amount_minor, currency",
        ]
        #expect(reason.contains("it takes " + (known[kind] ?? "?")), "\(reason)")
    }

    @Test("every key each kind takes is accepted; a demo day's lines, which the bench ingests too, all parse")
    func everyKnownKey() throws {
        let lines = [
            #"{"kind":"request","payment":"p1","at":"2026-11-22T08:00:00Z","url":"u","app_version":"1.88.0"}"#,
            #"{"kind":"app_switch","payment":"p1","at":"2026-11-22T08:00:00Z","note":"n"}"#,
            #"{"kind":"callback","payment":"p1","at":"2026-11-22T08:00:00Z","url":"u","provider":"izettle"}"#,
            #"{"kind":"reconcile","at":"2026-11-22T08:00:00Z","provider":"sumup","transaction_id":"T","client_transaction_id":"a","foreign_tx_id":"b","transaction_code":"c","reference":"d","amount_minor":1,"currency":"EUR"}"#,
            #"{"kind":"fail","payment":"p1","at":"2026-11-22T08:00:00Z","reason":"r"}"#,
        ]
        for line in lines { #expect(Self.reason(line) == nil, "\(line): \(Self.reason(line) ?? "")") }
        for line in try DemoDay(payments: 300, seed: 2026).plan().lines {
            #expect(Self.reason(line) == nil, "\(line): \(Self.reason(line) ?? "")")
        }
    }
}
