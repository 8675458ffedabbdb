import Foundation
import HTTPTypes
import Testing

@Suite("HTTP: bad input")
struct InputTests {
    @Test("oversized bodies are 413 before anything is decided; nothing is appended")
    func oversized() async throws {
        let harness = try ServiceHarness { $0.maxBodyBytes = 2048; $0.maxStreamBytes = 4096 }
        try await harness.run { client in
            let padding = String(repeating: "x", count: 3000)
            let big = try await client.send(.post, "/v1/payments", key: "ingest", body: #"{"payment":"p1","url":"\#(padding)"}"#)
            #expect(big.status == 413)
            #expect(big.errorCode == "body_too_large")
            let line = #"{"kind":"request","payment":"b1","at":"2026-11-22T09:00:00Z","url":"\#(Samples.sumupLaunch("b"))"}"#
            let lines = Array(repeating: line, count: 40).joined(separator: "\n")
            let stream = try await client.send(.post, "/v1/observations", key: "ingest", body: lines)
            #expect(stream.status == 413)
            #expect(try harness.eventCount() == 0)
        }
    }

    @Test("a JSON Lines line that is not UTF-8 is rejected naming the byte, never recorded repaired; the others are recorded")
    func observationNotUTF8() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let good = #"{"kind":"request","payment":"u1","at":"2026-11-22T09:00:00Z","url":"\#(Samples.sumupLaunch("u1"))"}"#
            let bad = Array(#"{"kind":"request","payment":"u2","at":"2026-11-22T09:00:00Z","url":"\#(Samples.sumupLaunch("u2"))&title=caf"#.utf8)
                + [0xE9] + Array(#""}"#.utf8)
            let body = Array(good.utf8) + [0x0A] + bad
            let reply = try await client.send(.post, "/v1/observations", key: "ingest", bytes: body)
            #expect(reply.status == 200, "\(reply.body)")
            #expect(reply.json["accepted"] as? Int == 1)
            #expect(reply.json["rejected"] as? Int == 1)
            let errors = reply.json["errors"] as? [[String: Any]] ?? []
            #expect(errors.first?["line"] as? Int == 2)
            let message = errors.first?["message"] as? String
            #expect(message?.contains("not valid UTF-8 (byte 0xE9") == true, "\(errors)")
            #expect(try harness.eventCount() == 1)
        }
    }

    @Test("malformed JSON, unknown fields and wrong types are 400 naming the field; nothing is appended", arguments: [
        (#"{"payment":"#, "invalid_body", "not valid JSON"),
        ("[1,2]", "invalid_body", "JSON object"),
        ("", "invalid_body", "JSON object body"),
        (#"{"payment":"p1","provider":"square","amount":"1.00","currency":"USD","callback_url":"x","client_id":"c","colour":"red"}"#, "invalid_field", "\"colour\""),
        (#"{"payment":7}"#, "invalid_field", "\"payment\" must be a string"),
        (#"{"payment":"p1","provider":"visa","amount":"1.00","currency":"USD","callback_url":"x","client_id":"c"}"#, "invalid_field", "\"provider\""),
        (#"{"payment":"p1","provider":"square","amount":"1.005","currency":"USD","callback_url":"x","client_id":"c"}"#, "invalid_field", "\"amount\""),
        (#"{"payment":"p1","provider":"square","amount":"1.00","currency":"usdx","callback_url":"x","client_id":"c"}"#, "invalid_field", "\"currency\""),
        (#"{"payment":"p1","url":"sumupmerchant://pay/1.0","provider":"sumup"}"#, "invalid_field", "\"provider\""),
        (#"{"payment":"p1","url":"notaurl at all"}"#, "unreadable_evidence", "not a URL"),
        (#"{"payment":"p1","url":"sumupmerchant://pay/1.0","at":"yesterday"}"#, "invalid_field", "\"at\""),
        (#"{"payment":"p1","url":"sumupmerchant://pay/1.0","at":"2016-12-31T23:59:60Z"}"#, "invalid_field", "leap second"),
        (#"{"payment":"p1","provider":"sumup","amount":"1.00","currency":"EUR","callback_url":"x","client_id":"c","skip_screen_success":1}"#, "invalid_field", "\"skip_screen_success\""),
        (#"{"payment":"p1","url":"sumupmerchant://pay/1.0?amount=1.00&currency=EUR","skip_screen_success":true}"#, "invalid_field", "cannot be combined with \"url\""),
    ])
    func malformed(body: String, code: String, mentions: String) async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let reply = try await client.send(.post, "/v1/payments", key: "ingest", body: body)
            #expect(reply.status == 400, "\(reply.body)")
            #expect(reply.errorCode == code, "\(reply.body)")
            #expect(reply.errorMessage.contains(mentions), "\(reply.body)")
            #expect(try harness.eventCount() == 0)
        }
    }

    @Test("bad query parameters are 400 naming the parameter; unknown endpoints are JSON 404s; no internal detail leaks")
    func queries() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            for (uri, name) in [
                ("/v1/payments?status=lost", "status"), ("/v1/payments?limit=0", "limit"), ("/v1/payments?day=21-11-2026", "day"),
                ("/v1/payments?from=soon", "from"), ("/v1/payments?colour=red", "colour"), ("/v1/findings?severity=bad", "severity"),
                ("/v1/analytics?from=x", "from"), ("/v1/payments?cursor=", "cursor"),
                ("/v1/findings?cursor=" + String(repeating: "c", count: 600), "cursor"), ("/v1/payments/p1/replay?at=never", "at"),
                ("/v1/payments?status=failed&status=completed", "status"), ("/v1/analytics?to=2026-11-21&to=2026-11-24", "to"),
            ] {
                let reply = try await client.send(.get, uri, key: "read")
                #expect(reply.status == 400, "\(uri)")
                #expect(reply.errorMessage.contains("\"\(name)\""), "\(uri): \(reply.body)")
            }
            let longID = try await client.send(.get, "/v1/payments/" + String(repeating: "p", count: 600), key: "read")
            #expect(longID.status == 404)
            let longState = #"{"state":"\#(String(repeating: "s", count: 600))"}"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            #expect(try await client.send(.get, "/v1/callbacks/square?data=\(longState)").status == 404)
            // An empty segment is not dropped: `//audit` is no route, not payment "audit".
            _ = try await client.send(.post, "/v1/payments", key: "ingest", body: #"{"payment":"audit","url":"\#(Samples.sumupLaunch("r-audit"))"}"#)
            for (method, uri) in [(HTTPRequest.Method.get, "/v1/payments//audit"), (.get, "//v1/payments/audit"), (.post, "/v1/payments//callbacks")] {
                let reply = try await client.send(method, uri, key: "audit", body: method == .post ? #"{"url":"myshop://x"}"# : nil)
                #expect(reply.status == 404, "\(uri): \(reply.body)")
                #expect(reply.errorMessage.contains("a path segment is empty"), "\(uri): \(reply.body)")
            }
            let missing = try await client.send(.get, "/v2/nothing", key: "read")
            #expect(missing.status == 404)
            #expect(missing.errorCode == "not_found")
            let wrongMethod = try await client.send(.delete, "/v1/payments", key: "read")
            #expect(wrongMethod.status == 405)
            for reply in [missing, wrongMethod] {
                #expect(!reply.body.contains(harness.directory.path) && !reply.body.contains(".swift"))
            }
        }
    }

    @Test("a known path asked with a method it is not served with is a JSON 405 whose Allow header lists the methods it is served with; an unknown path stays 404")
    func methodNotAllowed() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            for (method, uri, allowed) in [
                (HTTPRequest.Method.delete, "/v1/payments", "POST, GET, HEAD"), (.put, "/health", "GET, HEAD"), (.get, "/v1/observations", "POST"),
                (.delete, "/v1/payments/pay-1", "GET, HEAD"), (.get, "/v1/payments/pay-1/callbacks", "POST"),
                (.post, "/v1/payments/pay-1/audit", "GET, HEAD"), (.patch, "/v1/findings/", "GET, HEAD"),
            ] {
                let reply = try await client.send(method, uri, key: "admin")
                #expect(reply.status == 405, "\(method) \(uri): \(reply.body)")
                #expect(reply.errorCode == "method_not_allowed", "\(method) \(uri)")
                #expect(reply.headers[.allow] == allowed, "\(method) \(uri)")
                #expect(reply.errorMessage.contains(allowed), "\(reply.body)")
            }
            for (method, uri) in [(HTTPRequest.Method.get, "/v1/payments/pay-1/refunds"), (.delete, "/v1"), (.get, "/v1/payments/a/b/c/d")] {
                let reply = try await client.send(method, uri, key: "admin")
                #expect(reply.status == 404, "\(method) \(uri): \(reply.body)")
                #expect(reply.errorCode == "not_found")
                #expect(reply.headers[.allow] == nil)
            }
            // HEAD is served wherever GET is: the same status and headers, no body.
            let head = try await client.send(.head, "/health")
            #expect(head.status == 200 && head.body.isEmpty, "\(head.body)")
            #expect(try await client.send(.head, "/v1/payments/pay-1", key: "read").status == 404)
            #expect(try harness.eventCount() == 0)
        }
    }

    @Test("a store that fails to write answers 503 without internal detail, and the log is intact afterwards")
    func storageFailure() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            _ = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1"))
            harness.store.close()
            let reply = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p2"))
            #expect(reply.status == 503)
            #expect(reply.errorCode == "storage_unavailable")
            #expect(!reply.body.contains(harness.directory.path))
            let ready = try await client.send(.get, "/ready")
            #expect(ready.status == 503)
        }
    }
}
