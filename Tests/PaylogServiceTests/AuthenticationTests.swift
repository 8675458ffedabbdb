import Foundation
import PaylogService
import Testing

@Suite("HTTP: API keys and scopes")
struct AuthenticationTests {
    @Test("no key is 401 with a Bearer challenge; a malformed, unknown or revoked key is 401; nothing is appended")
    func unauthenticated() async throws {
        let harness = try ServiceHarness()
        let revoked = try APIKeyStore(database: harness.database).add(name: "gone", scopes: [.admin]).key
        try APIKeyStore(database: harness.database).revoke(name: "gone")
        try await harness.run { client in
            let none = try await client.send(.post, "/v1/payments", body: Samples.squareBuild("p1"))
            #expect(none.status == 401)
            #expect(none.headers[.wwwAuthenticate] == "Bearer realm=\"paylog\"")
            #expect(none.errorCode == "unauthorized")
            for header in ["Basic abc", "Bearer", "Bearer pk_0000000000000000_" + String(repeating: "0", count: 64), "Bearer \(revoked)"] {
                let reply = try await client.send(.post, "/v1/payments", key: "raw:" + header, body: Samples.squareBuild("p1"))
                #expect(reply.status == 401, "\(header)")
            }
            let reading = try await client.send(.get, "/v1/payments/p1")
            #expect(reading.status == 401)
            #expect(try harness.eventCount() == 0)
        }
    }

    @Test("each route needs its scope: 403 outside it, admin passes everywhere")
    func scopes() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let readerPosts = try await client.send(.post, "/v1/payments", key: "read", body: Samples.squareBuild("p1"))
            #expect(readerPosts.status == 403)
            #expect(readerPosts.errorMessage.contains("'ingest'"))
            let created = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1"))
            #expect(created.status == 201)
            let ingesterReads = try await client.send(.get, "/v1/payments/p1", key: "ingest")
            #expect(ingesterReads.status == 403)
            for role in ["read", "audit", "admin"] {
                #expect(try await client.send(.get, "/v1/payments/p1", key: role).status == 200, "\(role)")
            }
            let admin = try await client.send(.post, "/v1/payments", key: "admin", body: Samples.squareBuild("p2"))
            #expect(admin.status == 201)
            #expect(try harness.eventCount() == 2)
        }
    }

    @Test("keys: names are unique, scopes are parsed strictly, only the secret's hash is stored")
    func keyStore() throws {
        let harness = try ServiceHarness()
        defer { harness.directory.remove() }
        let keys = APIKeyStore(database: harness.database)
        #expect(throws: APIKeyError.duplicateName("read")) { try keys.add(name: "read", scopes: [.read]) }
        #expect(throws: APIKeyError.unknownScope("write")) { try APIKeyScope.parseList("read,write") }
        #expect(throws: APIKeyError.noScopes) { try APIKeyScope.parseList(" , ") }
        #expect(throws: APIKeyError.invalidName("a b")) { try keys.add(name: "a b", scopes: [.read]) }
        #expect(throws: APIKeyError.unknownName("nobody")) { try keys.revoke(name: "nobody") }
        let issued = try keys.add(name: "shop-1", scopes: [.read, .ingest, .read])
        #expect(issued.scopes == [.ingest, .read])
        let secret = String(issued.key.split(separator: "_")[2])
        let stored = try #require(try keys.list().first { $0.name == "shop-1" })
        #expect(stored.secretHash != secret && stored.secretHash.count == 64)
        #expect(try keys.authenticate(issued.key)?.name == "shop-1")
        var tampered = Array(issued.key)
        tampered[tampered.count - 1] = tampered.last == "0" ? "1" : "0"
        #expect(try keys.authenticate(String(tampered)) == nil)
        // The raw database file never holds the secret.
        let file = try Data(contentsOf: URL(fileURLWithPath: harness.database.path + "/data.mdb"))
        #expect(file.range(of: Data(secret.utf8)) == nil)
        #expect(file.range(of: Data(stored.secretHash.utf8)) != nil)
        // The key database failing is not the key being unknown: the middleware answers 503, not 401.
        harness.database.close()
        #expect(throws: APIKeyError.self) { try keys.authenticate(issued.key) }
    }
}
