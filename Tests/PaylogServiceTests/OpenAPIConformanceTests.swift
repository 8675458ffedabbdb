import Foundation
import Synchronization
import Testing

@Suite("HTTP: the server matches Docs/openapi.yaml")
struct OpenAPIConformanceTests {
    @Test("every route the server has is documented, and every documented operation exists")
    func routes() throws {
        let document = try OpenAPIDocument()
        let harness = try ServiceHarness()
        defer { harness.directory.remove() }
        let served = Set(harness.service.router().routes.map { route -> String in
            let path = route.path.description.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
            return "\(route.method.rawValue) /" + path.joined(separator: "/")
        })
        let documented = Set(document.operations.map { "\($0.method) \($0.path)" })
        // HEAD mirrors a reading GET (Docs/http-api.md), so it is not documented operation by operation; but it must
        // mirror only documented GETs, and never the Square callback's, which records.
        let heads = served.filter { $0.hasPrefix("HEAD ") }
        for head in heads { #expect(documented.contains("GET " + head.dropFirst(5)), "\(head) mirrors no documented GET") }
        #expect(!heads.contains("HEAD /v1/callbacks/square"))
        let operations = served.subtracting(heads)
        #expect(operations == documented, "served only: \(operations.subtracting(documented)); documented only: \(documented.subtracting(operations))")
        #expect(documented.count == 15)
    }

    @Test("real answers of every endpoint, successes and failures, have documented statuses and match their schemas")
    func answers() async throws {
        let document = try OpenAPIDocument()
        let harness = try ServiceHarness { $0.maxBodyBytes = 4096 }
        let problems = Mutex<[String]>([])
        let covered = Mutex<Set<String>>([])
        try await harness.run { client in
            func check(_ method: String, _ template: String, _ uri: String, key: String? = "admin", body: String? = nil, idem: String? = nil) async throws -> ServiceHarness.Reply {
                let reply = try await client.send(.init(method)!, uri, key: key, body: body, idempotencyKey: idem)
                let found = document.problems(
                    method: method, path: template, status: reply.status, contentType: reply.headers[.contentType], body: reply.body)
                problems.withLock { $0 += found }
                covered.withLock { _ = $0.insert("\(method) \(template)") }
                return reply
            }
            _ = try await check("GET", "/health", "/health", key: nil)
            _ = try await check("GET", "/ready", "/ready", key: nil)
            let created = try await check("POST", "/v1/payments", "/v1/payments", body: Samples.squareBuild("p1"), idem: "a")
            _ = try await check("POST", "/v1/payments", "/v1/payments", body: Samples.squareBuild("p1"), idem: "a")
            _ = try await check("POST", "/v1/payments", "/v1/payments", body: Samples.squareBuild("p9"), idem: "a")
            _ = try await check("POST", "/v1/payments", "/v1/payments", body: #"{"payment":"s1","url":"\#(Samples.sumupLaunch("r1"))"}"#)
            _ = try await check("POST", "/v1/payments", "/v1/payments", body: #"{"payment":"s1","bad":1}"#)
            _ = try await check("POST", "/v1/payments", "/v1/payments", body: String(repeating: " ", count: 5000))
            _ = try await check("POST", "/v1/payments", "/v1/payments", key: nil, body: "{}")
            _ = try await check("POST", "/v1/payments", "/v1/payments", key: "read", body: "{}")
            _ = try await check("POST", "/v1/payments", "/v1/payments", body: #"{"payment":"x","provider":"sumup","amount":"5.00","currency":"EUR","callback_url":"a://b","client_id":"k","app_version":"1.60","skip_screen_success":true}"#)
            _ = try await check("POST", "/v1/payments/{id}/app-switch", "/v1/payments/s1/app-switch", body: "{}")
            _ = try await check("POST", "/v1/payments/{id}/app-switch", "/v1/payments/none/app-switch", body: "{}")
            _ = try await check("POST", "/v1/payments/{id}/callbacks", "/v1/payments/s1/callbacks", body: #"{"url":"\#(Samples.sumupCallback("r1"))"}"#)
            _ = try await check("POST", "/v1/payments/{id}/callbacks", "/v1/payments/s1/callbacks", body: #"{"url":7}"#)
            _ = try await check("POST", "/v1/observations", "/v1/observations", body: #"{"kind":"app_switch","payment":"p1","at":"2026-11-22T10:00:00Z"}"# + "\nnope\n")
            _ = try await check("POST", "/v1/observations", "/v1/observations", body: "\n")
            _ = try await check("POST", "/v1/reconciliations", "/v1/reconciliations", body: #"{"at":"2026-11-23T08:00:00Z","provider":"sumup","transaction_id":"T1","foreign_tx_id":"r1"}"#)
            let state = created.json["reference"] as? String ?? ""
            let data = #"{"status":"ok","transaction_id":"t","client_transaction_id":"c","state":"\#(state)"}"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            _ = try await check("GET", "/v1/callbacks/square", "/v1/callbacks/square?data=\(data)", key: nil)
            _ = try await check("GET", "/v1/callbacks/square", "/v1/callbacks/square?data=\(data)", key: nil)
            _ = try await check("GET", "/v1/callbacks/square", "/v1/callbacks/square", key: nil)
            _ = try await check("GET", "/v1/payments", "/v1/payments?limit=1")
            _ = try await check("GET", "/v1/payments", "/v1/payments?status=nope")
            _ = try await check("GET", "/v1/payments/{id}", "/v1/payments/p1")
            _ = try await check("GET", "/v1/payments/{id}", "/v1/payments/none")
            _ = try await check("GET", "/v1/payments/{id}", "/v1/payments/p1", key: "ingest")
            _ = try await check("GET", "/v1/payments/{id}/audit", "/v1/payments/s1/audit", key: "read")
            _ = try await check("GET", "/v1/payments/{id}/audit", "/v1/payments/s1/audit", key: "audit")
            _ = try await check("GET", "/v1/payments/{id}/audit", "/v1/payments/none/audit")
            _ = try await check("GET", "/v1/payments/{id}/replay", "/v1/payments/s1/replay?at=1")
            _ = try await check("GET", "/v1/payments/{id}/replay", "/v1/payments/s1/replay?at=never")
            _ = try await check("GET", "/v1/analytics", "/v1/analytics")
            _ = try await check("GET", "/v1/analytics", "/v1/analytics?from=bad")
            _ = try await check("GET", "/v1/findings", "/v1/findings?limit=1")
            _ = try await check("GET", "/v1/findings", "/v1/findings?severity=bad")
            _ = try await check("GET", "/metrics", "/metrics", key: nil)
        }
        let found = problems.withLock { $0 }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
        #expect(covered.withLock { $0 } == Set(document.operations.map { "\($0.method) \($0.path)" }))
    }

    @Test("Error.code lists exactly the codes the service sends, which are those of http-api.md's error table")
    func errorCodes() throws {
        // Every code the service's sources give an error: `code: "…"` (ServiceError) and `"code": "…"` (written out).
        let sources = RepositoryFiles.root.appendingPathComponent("Sources/PaylogService").path
        var sent: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: sources) where name.hasSuffix(".swift") {
            let text = try RepositoryFiles.text("Sources/PaylogService/" + name)
            for match in text.matches(of: /(?:code: |"code": )"([a-z_]+)"/) { sent.insert(String(match.output.1)) }
        }
        // The codes in the second column of http-api.md's table under "## Errors".
        let guide = try RepositoryFiles.text("Docs/http-api.md")
        let errors = try #require(guide.components(separatedBy: "\n## Errors\n").dropFirst().first)
        var tabled: Set<String> = []
        for line in errors.split(separator: "\n").prefix(while: { !$0.hasPrefix("```") }) where line.hasPrefix("| 4") || line.hasPrefix("| 5") {
            let cell = line.split(separator: "|")[1]
            for match in cell.matches(of: /`([a-z_]+)`/) { tabled.insert(String(match.output.1)) }
        }
        let document = try OpenAPIDocument()
        let enumerated = Set(try #require(document.errorCodes))
        #expect(sent.count > 15)
        #expect(enumerated == sent, "listed only: \(enumerated.subtracting(sent)); sent only: \(sent.subtracting(enumerated))")
        #expect(tabled == sent, "tabled only: \(tabled.subtracting(sent)); sent only: \(sent.subtracting(tabled))")
    }

    @Test("the validator itself rejects what does not match (so the conformance test can fail)")
    func validatorFails() throws {
        let document = try OpenAPIDocument()
        #expect(!document.problems(method: "GET", path: "/v1/payments/{id}", status: 200, contentType: "application/json", body: #"{"payment":1}"#).isEmpty)
        #expect(!document.problems(method: "GET", path: "/v1/payments/{id}", status: 418, contentType: "application/json", body: "{}").isEmpty)
        #expect(!document.problems(method: "GET", path: "/health", status: 200, contentType: "text/html", body: "<p>").isEmpty)
    }
}
