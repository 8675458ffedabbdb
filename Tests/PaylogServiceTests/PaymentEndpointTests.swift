import Foundation
import Testing

@Suite("HTTP: recording payments")
struct PaymentEndpointTests {
    @Test("build mode records Requested and returns the launch URL with a 128-bit reference; observed mode records the URL as sent")
    func createPayment() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let built = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1"))
            #expect(built.status == 201)
            #expect(built.headers[.location] == "/v1/payments/p1")
            let reference = try #require(built.json["reference"] as? String)
            #expect(reference.count == 32 && reference.allSatisfy(\.isHexDigit))
            let url = try #require(built.json["launch_url"] as? String)
            #expect(url.hasPrefix("square-commerce-v1://payment/create?data="))
            #expect(url.contains(reference))
            #expect(built.json["status"] as? String == "requested")
            #expect(built.json["amount_minor"] as? Int == 1250)
            #expect(built.json["events_appended"] as? Int == 1)

            let launch = Samples.sumupLaunch("ref-2")
            let observed = try await client.send(
                .post, "/v1/payments", key: "ingest", body: #"{"payment":"p2","url":"\#(launch)","at":"2026-11-22T09:00:00Z"}"#)
            #expect(observed.status == 201)
            #expect(observed.json["provider"] as? String == "sumup")
            let audit = try await client.send(.get, "/v1/payments/p2/audit", key: "audit")
            let first = try #require((audit.json["timeline"] as? [[String: Any]])?.first)
            #expect(first["evidence"] as? String == launch)
            #expect(first["observed_at"] as? String == "2026-11-22T09:00:00.000000Z")

            let second = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p3"))
            #expect(second.json["reference"] as? String != reference)
            #expect(try harness.eventCount() == 3)
        }
    }

    @Test("a request that breaks the provider's contract is refused with 422 and nothing is recorded")
    func refusedLaunch() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let body = #"{"payment":"p1","provider":"sumup","amount":"5.00","currency":"EUR","callback_url":"myshop://cb","client_id":"AK","app_version":"1.60","skip_screen_success":true}"#
            let reply = try await client.send(.post, "/v1/payments", key: "ingest", body: body)
            #expect(reply.status == 422)
            #expect(reply.errorCode == "contract_violation")
            #expect(try harness.eventCount() == 0)
        }
    }

    @Test("app switch, callback and JSON Lines observations move the payment on; unknown payments are 404")
    func workflow() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let launch = Samples.sumupLaunch("r1")
            _ = try await client.send(.post, "/v1/payments", key: "ingest", body: #"{"payment":"p1","url":"\#(launch)"}"#)
            let switched = try await client.send(.post, "/v1/payments/p1/app-switch", key: "ingest", body: #"{"note":"to SumUp"}"#)
            #expect(switched.status == 200)
            #expect(switched.json["status"] as? String == "switched")
            let callback = #"{"url":"\#(Samples.sumupCallback("r1"))","at":"2026-11-21T09:00:30Z"}"#
            let called = try await client.send(.post, "/v1/payments/p1/callbacks", key: "ingest", body: callback)
            #expect(called.status == 200)
            #expect(called.json["status"] as? String == "completed")
            // The same observation sent again (the same URL and `at`) is recognised and appends nothing.
            let again = try await client.send(.post, "/v1/payments/p1/callbacks", key: "ingest", body: callback)
            #expect(again.json["events_appended"] as? Int == 0 && again.json["already_recorded"] as? Bool == true)
            // The same URL delivered again a minute later is a delivery of its own: recorded, changing nothing else.
            let redelivered = try await client.send(
                .post, "/v1/payments/p1/callbacks", key: "ingest",
                body: callback.replacingOccurrences(of: "09:00:30Z", with: "09:01:30Z"))
            #expect(redelivered.json["events_appended"] as? Int == 1 && redelivered.json["status"] as? String == "completed")
            #expect(redelivered.json["callbacks"] as? Int == 1, "one distinct callback, delivered twice")

            let unknown = try await client.send(.post, "/v1/payments/nope/app-switch", key: "ingest", body: "{}")
            #expect(unknown.status == 404)
            #expect(try await client.send(.get, "/v1/payments/nope", key: "read").status == 404)
            #expect(try await client.send(.get, "/v1/payments/nope/audit", key: "read").status == 404)
            #expect(try await client.send(.get, "/v1/payments/nope/replay", key: "read").status == 404)
            // A callback for an unknown payment whose URL names no provider: the id is what is wrong, not the URL.
            let providerless = try await client.send(
                .post, "/v1/payments/nope/callbacks", key: "ingest",
                body: #"{"url":"myshop://paylog-callback?paylog_outcome=failure","at":"2026-11-21T09:00:30Z"}"#)
            #expect(providerless.status == 404 && (providerless.json["error"] as? [String: Any])?["code"] as? String == "not_found", "\(providerless.json)")
            #expect(try harness.eventCount() == 4)
        }
    }

    @Test("/v1/observations gives the same report as paylog ingest --json, streamed; /v1/reconciliations matches report lines")
    func observations() async throws {
        let harness = try ServiceHarness()
        let lines = [
            #"{"kind":"request","payment":"o1","at":"2026-11-22T09:00:00Z","url":"\#(Samples.sumupLaunch("x1"))"}"#,
            "not json",
            #"{"kind":"callback","at":"2026-11-22T09:01:00Z","url":"\#(Samples.sumupCallback("x1"))"}"#,
            "",
            #"{"kind":"teleport","payment":"o1","at":"2026-11-22T09:02:00Z"}"#,
        ]
        // The same lines through the CLI's code path on a separate store give the expected report.
        let reference = TemporaryDirectoryStore()
        let expected = try await reference.ingestReport(lines)
        try await harness.run { client in
            let reply = try await client.send(.post, "/v1/observations", key: "ingest", body: lines.joined(separator: "\n"))
            #expect(reply.status == 200)
            #expect(reply.body == expected)
            #expect(reply.json["accepted"] as? Int == 2)
            #expect(reply.json["rejected"] as? Int == 2)
            let errors = try #require(reply.json["errors"] as? [[String: Any]])
            #expect(errors.map { $0["line"] as? Int } == [2, 5])

            let report = #"{"at":"2026-11-23T08:00:00Z","provider":"sumup","transaction_id":"T-1","foreign_tx_id":"x1","amount_minor":1000,"currency":"EUR"}"#
            let reconciled = try await client.send(.post, "/v1/reconciliations", key: "ingest", body: report + "\n")
            #expect(reconciled.json["accepted"] as? Int == 1)
            #expect(try await client.send(.get, "/v1/payments/o1", key: "read").json["status"] as? String == "reconciled")
            let empty = try await client.send(.post, "/v1/observations", key: "ingest", body: "\n\n")
            #expect(empty.status == 400)
            #expect(try harness.eventCount() == 3)
        }
    }

    @Test("the JSON Lines examples of http-api.md are what the server answers, byte for byte")
    func documentedReports() async throws {
        let guide = try RepositoryFiles.text("Docs/http-api.md").components(separatedBy: "\n")
        // The observations example: the lines `cat` writes, then the answer below the curl that sends them.
        let start = try #require(guide.firstIndex { $0.hasPrefix("$ cat > observations.jsonl <<'JSONL'") })
        let end = try #require(guide[start...].firstIndex(of: "JSONL"))
        let sent = try #require(guide[end...].firstIndex { $0.contains("--data-binary @observations.jsonl") })
        // The reconciliations example: the line given inline, then its answer.
        let section = try #require(guide.firstIndex(of: "### `POST /v1/reconciliations`"))
        let inline = try #require(guide[section...].firstIndex { $0.contains("--data-binary '") })
        let report = try #require(guide[inline].split(separator: "'", omittingEmptySubsequences: false).dropFirst().first)
        let harness = try ServiceHarness()
        try await harness.run { client in
            let observed = try await client.send(
                .post, "/v1/observations", key: "ingest", body: guide[(start + 1)..<end].joined(separator: "\n") + "\n")
            #expect(observed.body == guide[sent + 1])
            let reconciled = try await client.send(.post, "/v1/reconciliations", key: "ingest", body: String(report))
            #expect(reconciled.body == guide[inline + 1])
        }
    }

    @Test("Location percent-encodes the payment id, dot segments too, so following it reads that payment; a huge bad id is not echoed whole")
    func locationEncoded() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let ids = [
                ("order/7", "/v1/payments/order%2F7"), ("p%41", "/v1/payments/p%2541"), ("a?b#c", "/v1/payments/a%3Fb%23c"),
                ("...", "/v1/payments/..."),
            ]
            for (id, path) in ids {
                let created = try await client.send(
                    .post, "/v1/payments", key: "ingest", body: #"{"payment":"\#(id)","url":"\#(Samples.sumupLaunch("ref-\(id.count)"))"}"#)
                #expect(created.status == 201, "\(created.body)")
                #expect(created.headers[.location] == path)
                let read = try await client.send(.get, path, key: "read")
                #expect(read.status == 200 && read.json["payment"] as? String == id, "\(read.body)")
            }
            // A dot segment would be resolved away by the client (`/v1/payments/..` is `/v1/`, `%2E%2E` too): refused.
            for id in [".", ".."] {
                let refused = try await client.send(
                    .post, "/v1/payments", key: "ingest", body: #"{"payment":"\#(id)","url":"\#(Samples.sumupLaunch("dots"))"}"#)
                #expect(refused.status == 400 && refused.errorMessage.contains("a URL path cannot name it"), "\(refused.body)")
            }
            let huge = try await client.send(.get, "/v1/payments/" + String(repeating: "x", count: 5_000), key: "read")
            #expect(huge.status == 404)
            #expect(huge.errorMessage.count < 200 && huge.errorMessage.contains("(5000 bytes)"), "\(huge.errorMessage)")
        }
    }

    @Test("a build-mode request naming another payment's reference is refused: it would take over that payment's callbacks")
    func referenceTakenOver() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let victim = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("victim"))
            let state = try #require(victim.json["reference"] as? String)
            let before = try harness.eventCount()
            let evil = Samples.squareBuild("evil", amount: "0.01").replacingOccurrences(of: "}", with: #","reference":"\#(state)"}"#)
            let refused = try await client.send(.post, "/v1/payments", key: "ingest", body: evil)
            #expect(refused.status == 422, "\(refused.body)")
            #expect(refused.errorMessage.contains("already belongs to payment victim"))
            #expect(try harness.eventCount() == before)
            // The payment's own reference, sent again for it, is still taken.
            let own = Samples.squareBuild("victim").replacingOccurrences(of: "}", with: #","reference":"\#(state)"}"#)
            #expect(try await client.send(.post, "/v1/payments", key: "ingest", body: own).status == 201)
        }
    }
}
