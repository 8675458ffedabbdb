import Foundation
import PaylogService
import Testing
import TestSupport

/// Queries that could only answer nothing are refused, naming the parameter.
@Suite("Query filters")
struct QueryFilterTests {
    @Test("a currency filter that is not three letters, and from after to, are 400 naming the parameter")
    func refusedFilters() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            for (uri, name) in [
                ("/v1/payments?currency=EURO", "currency"), ("/v1/payments?currency=E1R", "currency"),
                ("/v1/payments?from=2026-11-22&to=2026-11-21", "from"), ("/v1/analytics?from=2026-11-22&to=2026-11-21", "from"),
            ] {
                let reply = try await client.send(.get, uri, key: "read")
                #expect(reply.status == 400, "\(uri): \(reply.body)")
                #expect(reply.errorMessage.contains("\"\(name)\""), "\(uri): \(reply.body)")
            }
            #expect(try await client.send(.get, "/v1/payments?currency=eur", key: "read").status == 200)
            #expect(try await client.send(.get, "/v1/analytics?from=2026-11-21&to=2026-11-21", key: "read").status == 200)
        }
    }
}
