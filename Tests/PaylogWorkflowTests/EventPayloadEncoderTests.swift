import Foundation
import PaylogDomain
import TestSupport
import Testing

@testable import PaylogWorkflow

/// The field-by-field payload encoder against SwiftProtobuf's generated messages, byte for byte.
@Suite("Event payload encoder")
struct EventPayloadEncoderTests {
    private static func text(_ rng: inout SplitMix64, _ maximum: Int) -> String {
        // Mixed scripts, so that key order by String `<` and by UTF-8 bytes can differ.
        let alphabet = Array("abcXYZ019-_:/?&=%éÉ€😀ｱ\u{0301}")
        return String((0..<Int.random(in: 0...maximum, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
    }

    private static func optionalText(_ rng: inout SplitMix64, _ maximum: Int) -> String? {
        Bool.random(using: &rng) ? text(&rng, maximum) : nil
    }

    private static func money(_ rng: inout SplitMix64) -> Money? {
        guard Bool.random(using: &rng) else { return nil }
        let minor = [0, -1, 1, 127, 128, Int64.min, Int64.max, Int64.random(in: -5...100_000, using: &rng)].randomElement(using: &rng)!
        return Money(minorUnits: minor, currency: try! CurrencyCode(["USD", "EUR", "JPY"].randomElement(using: &rng)!))
    }

    /// A random event of a random type, every optional field set or not, every string possibly empty.
    private static func randomEvent(_ rng: inout SplitMix64) -> PaymentEvent {
        let provider = [Provider.square, .sumup, .izettle].randomElement(using: &rng)!
        switch Int.random(in: 0..<6, using: &rng) {
        case 0:
            return .requested(Requested(
                launchURL: text(&rng, 120), provider: provider, amount: money(&rng), reference: optionalText(&rng, 20),
                apiVersion: optionalText(&rng, 4), appVersion: optionalText(&rng, 6), builtByPaylog: Bool.random(using: &rng)))
        case 1:
            return .appSwitched(AppSwitched(note: text(&rng, 30)))
        case 2:
            let status: CallbackStatus = [.success, .failure, .invalid(text(&rng, 8))].randomElement(using: &rng)!
            let hint: RoutingHint? = [nil, .paymentID(try! PaymentID("pay-\(Int.random(in: 1...99, using: &rng))")), .reference(text(&rng, 8))]
                .randomElement(using: &rng)!
            var fields: [String: String] = [:]
            for _ in 0..<Int.random(in: 0...6, using: &rng) { fields[text(&rng, 6)] = text(&rng, 10) }
            let outcome = CallbackOutcome(
                provider: provider, rawURL: text(&rng, 40), status: status, transactionID: optionalText(&rng, 12),
                clientTransactionID: optionalText(&rng, 12), reference: optionalText(&rng, 12), errorCode: optionalText(&rng, 12),
                message: optionalText(&rng, 30), isOffline: Bool.random(using: &rng), routingHint: hint, fields: fields)
            return .callbackReceived(CallbackReceived(
                callbackURL: text(&rng, 100), outcome: outcome, isRepeat: Bool.random(using: &rng), isLate: Bool.random(using: &rng),
                contradictsEarlier: Bool.random(using: &rng), answersEarlierAttempt: Bool.random(using: &rng),
                isRedelivery: Bool.random(using: &rng)))
        case 3:
            let expires: Int64? = [nil, 0, -1, Int64.random(in: .min ... .max, using: &rng)].randomElement(using: &rng)!
            return .offline(Offline(clientTransactionID: text(&rng, 12), expiresAtMicroseconds: expires))
        case 4:
            return .reconciled(Reconciled(
                reportLine: text(&rng, 80), transactionID: text(&rng, 12), matchedBy: ["client_transaction_id", "reference", ""].randomElement(using: &rng)!,
                amount: money(&rng), amountMismatch: Bool.random(using: &rng)))
        default:
            return .failed(Failed(
                source: [FailureSource.provider, .operator_, .expiry].randomElement(using: &rng)!, errorCode: optionalText(&rng, 12),
                reason: text(&rng, 30), observedBeforeSuccess: Bool.random(using: &rng), repeatsFailure: Bool.random(using: &rng)))
        }
    }

    @Test("5,000 random events of every type: the same bytes as SwiftProtobuf's deterministic serialization")
    func sameBytesAsSwiftProtobuf() throws {
        var rng = SplitMix64(seed: 606)
        var types = Set<String>()
        for _ in 0..<5_000 {
            let event = Self.randomEvent(&rng)
            types.insert(event.typeName)
            let expected = try EventCodec.referencePayload(event)
            #expect(EventPayloadEncoder.payload(event) == expected, "\(event)")
        }
        #expect(types.count == 6)
    }

    @Test("every event a demo day records is stored as SwiftProtobuf writes it, and decodes back to what re-encodes the same")
    func demoDay() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try PaymentWorkflow.openStore(at: dir.path)
        defer { store.close() }
        let report = await PaymentWorkflow(store: store, actor: "t").ingest(lines: try DemoDay(payments: 80, seed: 77).plan().lines)
        #expect(report.rejected == 0 && report.eventsAppended > 200)
        var checked = 0
        try store.forEach { recorded in
            let event = try EventCodec.decode(recorded)
            let stored = try recorded.payload
            #expect(stored == (try EventCodec.referencePayload(event)), "position \(recorded.position)")
            #expect(EventPayloadEncoder.payload(event) == stored)
            checked += 1
            return true
        }
        #expect(checked == report.eventsAppended)
    }
}
