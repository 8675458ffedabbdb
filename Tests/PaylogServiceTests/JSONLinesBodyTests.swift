import Foundation
import PaylogService
import Testing
import TestSupport

/// The JSON Lines endpoints read bodies by `paylog ingest`'s rules.
@Suite("JSON Lines bodies")
struct JSONLinesBodyTests {
    @Test("a line with a key its kind does not take is rejected naming the key, on both JSON Lines endpoints")
    func unknownKey() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            _ = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("k1", amount: "20.00"))
            let report = #"{"at":"2026-11-23T08:00:00Z","provider":"square","transaction_id":"T-k1","client_transaction_id":"x","amount":2500,"currency":"USD"}"#
            for (endpoint, body) in [("/v1/reconciliations", report), ("/v1/observations", #"{"kind":"fail","payment_id":"k1","at":"2026-11-22T09:00:00Z","reason":"r"}"#)] {
                let reply = try await client.send(.post, endpoint, key: "ingest", body: body)
                #expect(reply.json["rejected"] as? Int == 1, "\(reply.body)")
                let message = (reply.json["errors"] as? [[String: Any]])?.first?["message"] as? String ?? ""
                #expect(message.contains("is not a field of kind"), "\(message)")
            }
            #expect(try harness.eventCount() == 1)
        }
    }
}
