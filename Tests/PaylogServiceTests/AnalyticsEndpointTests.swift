import Foundation
import PaylogService
import Testing
import TestSupport

/// `GET /v1/analytics` writes what the schema says.
@Suite("Analytics endpoint")
struct AnalyticsEndpointTests {
    @Test("an amount sum past Int64.max is a JSON number in /v1/analytics, as the schema says")
    func largeSum() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            for id in ["s1", "s2"] {
                let reply = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild(id, amount: "50000000000000000.00"))
                #expect(reply.status == 201, "\(reply.body)")
            }
            let reply = try await client.send(.get, "/v1/analytics", key: "read")
            #expect(reply.body.contains(#""requested_minor":10000000000000000000,"#), "\(reply.body)")
            #expect(!reply.body.contains(#""requested_minor":""#), "\(reply.body)")
        }
    }
}
