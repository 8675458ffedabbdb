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
}
