import Foundation
import PaylogDomain
import PaylogProviders
import PaylogStore
import PaylogWorkflow
import PropertyBased
import Testing

@Suite("Event payloads and observation lines")
struct EventCodecTests {
    @Test("a callback's query fields encode in one order however its dictionary was built, so payloads are repeatable")
    func deterministicMapOrder() throws {
        var small: [String: String] = [:]
        var large = [String: String](minimumCapacity: 4096)
        for index in 0..<40 { small["field\(index)"] = "v\(index)" }
        for index in (0..<40).reversed() { large["field\(index)"] = "v\(index)" }
        #expect(Array(small.keys) != Array(large.keys))  // the dictionaries really iterate differently
        func payload(_ fields: [String: String]) throws -> Data {
            var outcome = try WorkflowFixtures.squareOffline(state: "st", client: "C1")
            outcome.fields = fields
            return try EventCodec.payload(.callbackReceived(CallbackReceived(
                callbackURL: outcome.rawURL, outcome: outcome, isRepeat: false, isLate: false, contradictsEarlier: false)))
        }
        #expect(try payload(small) == payload(large))
    }

    static func samples() throws -> [PaymentEvent] {
        let usd = try CurrencyCode("USD")
        let outcome = try WorkflowFixtures.squareOffline(state: "st", client: "C1")
        return [
            .requested(Requested(launchURL: "square-commerce-v1://payment/create?data=%7B%7D", provider: .square,
                                 amount: Money(minorUnits: 1234, currency: usd), reference: "st", apiVersion: "1.3",
                                 appVersion: nil, builtByPaylog: true)),
            .requested(Requested(launchURL: "sumupmerchant://pay/1.0", provider: .sumup, amount: nil, reference: nil,
                                 apiVersion: nil, appVersion: "1.53.2", builtByPaylog: false)),
            .appSwitched(AppSwitched(note: "tapped Pay")),
            .callbackReceived(CallbackReceived(callbackURL: outcome.rawURL, outcome: outcome, isRepeat: true, isLate: true, contradictsEarlier: false)),
            .offline(Offline(clientTransactionID: "C1", expiresAtMicroseconds: 86_400_000_000)),
            .offline(Offline(clientTransactionID: "C2", expiresAtMicroseconds: nil)),
            .reconciled(Reconciled(reportLine: #"{"a":1}"#, transactionID: "T", matchedBy: "client_transaction_id",
                                   amount: Money(minorUnits: 1, currency: usd), amountMismatch: true)),
            .failed(Failed(source: .expiry, errorCode: nil, reason: "expired")),
            .failed(Failed(source: .provider, errorCode: "some_unknown_code", reason: "declined")),
        ]
    }

    @Test("every event type encodes to protobuf and decodes back to the same event")
    func roundTrip() throws {
        for event in try Self.samples() {
            let encoded = try EventCodec.encode(event, id: UUID(), observedAt: nil, actor: "t")
            #expect(encoded.type == event.typeName)
            let decoded = try EventCodec.decode(type: encoded.type, schemaVersion: encoded.schemaVersion, payload: encoded.payload, position: 1)
            if case .callbackReceived(var original) = event, case .callbackReceived(let back) = decoded {
                original.outcome.parseNotes = []  // parse notes are re-derived from the raw URL, not stored
                #expect(back == original)
            } else {
                #expect(decoded == event)
            }
        }
    }

    @Test("garbage payload bytes are a clear decoding error naming the position")
    func garbagePayload() {
        #expect(throws: EventCodecError.self) {
            _ = try EventCodec.decode(type: "Requested", schemaVersion: 1, payload: Data([0xFF, 0xFF, 0xFF]), position: 42)
        }
    }

    @Test("arbitrary text never crashes the observation parser: it parses or throws a typed error")
    func observationFuzz() async {
        await propertyCheck(count: 500, input: Gen.latin1.string(of: 0...120)) { text in
            do { _ = try Observation.parse(text) } catch let error as ObservationError { #expect(!error.description.isEmpty) } catch { Issue.record("untyped error \(error)") }
        }
        let fragments = [#"{"kind":"callback""#, #","at":"2026-11-21T09:00:00Z""#, #","url":"#, #""x://y""#, #","payment":"#,
                         #"12"#, #"null"#, #"}"#, #"{"#, #"[1]"#, #","amount_minor":true"#, #","provider":"square""#]
        await propertyCheck(count: 500, input: Gen.int(in: 0...(fragments.count - 1)).array(of: 1...8)) { picks in
            let text = picks.map { fragments[$0] }.joined()
            do { _ = try Observation.parse(text) } catch let error as ObservationError { #expect(!error.description.isEmpty) } catch { Issue.record("untyped error \(error)") }
        }
    }
}
