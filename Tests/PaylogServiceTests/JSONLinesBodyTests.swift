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

    @Test("a UTF-8 byte order mark opening a JSON Lines body is skipped, as paylog ingest skips it",
          arguments: ["/v1/observations", "/v1/reconciliations"])
    func byteOrderMark(_ endpoint: String) async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            _ = try await client.send(.post, "/v1/payments", key: "ingest", body: #"{"payment":"b1","url":"\#(Samples.sumupLaunch("ref-b1"))"}"#)
            let line = endpoint == "/v1/observations"
                ? #"{"kind":"app_switch","payment":"b1","at":"2026-11-22T09:00:00Z"}"#
                : #"{"at":"2026-11-23T08:00:00Z","provider":"sumup","transaction_id":"T-b1","foreign_tx_id":"ref-b1","amount_minor":1000,"currency":"EUR"}"#
            let reply = try await client.send(.post, endpoint, key: "ingest", bytes: [0xEF, 0xBB, 0xBF] + Array(line.utf8))
            #expect(reply.status == 200, "\(reply.body)")
            #expect(reply.json["accepted"] as? Int == 1 && reply.json["rejected"] as? Int == 0, "\(reply.body)")
            #expect(try harness.eventCount() == 2)
        }
    }
}
