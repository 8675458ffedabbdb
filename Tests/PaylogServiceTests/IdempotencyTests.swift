import Foundation
@testable import PaylogService
import HTTPTypes
import HummingbirdTesting
import Synchronization
import Testing

@Suite("HTTP: Idempotency-Key")
struct IdempotencyTests {
    @Test("a retried POST returns the first answer byte for byte and appends nothing")
    func retry() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let first = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1"), idempotencyKey: "k-1")
            #expect(first.status == 201)
            #expect(first.headers[.init("Idempotent-Replayed")!] == nil)
            let events = try harness.eventCount()
            for _ in 0..<3 {
                let retry = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1"), idempotencyKey: "k-1")
                #expect(retry.status == 201)
                #expect(retry.body == first.body)
                #expect(retry.headers[.init("Idempotent-Replayed")!] == "true")
            }
            #expect(try harness.eventCount() == events)
            // Without the key, the same body is a new request: a second Requested with a new reference.
            let fresh = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1"))
            #expect(fresh.json["reference"] as? String != first.json["reference"] as? String)
            #expect(try harness.eventCount() == events + 1)
        }
    }

    @Test("a build-mode request sent again with the same at is recognised: same reference and URL, nothing appended")
    func buildRetryWithTime() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            func body(_ amount: String) -> String {
                Samples.squareBuild("p1", amount: amount).replacingOccurrences(of: "}", with: #","at":"2026-11-22T10:00:00Z"}"#)
            }
            let first = try await client.send(.post, "/v1/payments", key: "ingest", body: body("12.50"))
            #expect(first.status == 201)
            let events = try harness.eventCount()
            let retry = try await client.send(.post, "/v1/payments", key: "ingest", body: body("12.50"))
            #expect(retry.status == 200, "\(retry.body)")
            #expect(retry.json["events_appended"] as? Int == 0)
            #expect(retry.json["reference"] as? String == first.json["reference"] as? String)
            #expect(retry.json["launch_url"] as? String == first.json["launch_url"] as? String)
            #expect(try harness.eventCount() == events)
            // Another amount is another request: a new reference.
            let other = try await client.send(.post, "/v1/payments", key: "ingest", body: body("13.00"))
            #expect(other.status == 201)
            #expect(other.json["reference"] as? String != first.json["reference"] as? String)
            #expect(try harness.eventCount() == events + 1)
        }
    }

    @Test("identical build-mode requests arriving together record one Requested; every answer has its reference and URL")
    func buildRequestsTogether() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let body = Samples.squareBuild("p1").replacingOccurrences(of: "}", with: #","at":"2026-11-22T10:00:00Z"}"#)
            for round in 0..<3 {
                // The second round on a payment that already has a request: the same request again, ten times at once.
                let replies = try await client.sendAtOnce(10, .post, "/v1/payments", key: "ingest", body: { _ in body })
                #expect(replies.filter { $0.status == 201 }.count == (round == 0 ? 1 : 0), "\(replies.map(\.status))")
                #expect(replies.allSatisfy { $0.status == 201 || ($0.status == 200 && $0.json["events_appended"] as? Int == 0) })
                #expect(Set(replies.map { $0.json["reference"] as? String ?? "" }).count == 1)
                #expect(Set(replies.map { $0.json["launch_url"] as? String ?? "" }).count == 1)
                #expect(try harness.eventCount() == 1)
            }
        }
    }

    @Test("a key revoked and added again under its name is another key: it does not get the old key's answers")
    func revokedKeyName() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let first = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1"), idempotencyKey: "order-42")
            #expect(first.status == 201)
            let keys = APIKeyStore(database: harness.database)
            try keys.revoke(name: "ingest")
            let again = try keys.add(name: "ingest", scopes: [.ingest]).key
            let retry = try await client.send(
                .post, "/v1/payments", key: "raw:Bearer \(again)", body: Samples.squareBuild("p1"), idempotencyKey: "order-42")
            #expect(retry.headers[.init("Idempotent-Replayed")!] == nil, "the old key's stored answer was replayed")
            #expect(retry.body != first.body)
        }
    }

    @Test("an answer over 64 KiB (a long JSON Lines report) is not stored: its retry runs again and appends nothing")
    func largeAnswerNotStored() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            // 1,000 lines whose reasons run to about 160 bytes each.
            let line = #"{"kind":"request","payment":"p1","at":"2026-11-21T09:00:00Z","url":"ftp://nope"}"#
            let body = Array(repeating: line, count: 1_000).joined(separator: "\n")
            let first = try await client.send(.post, "/v1/observations", key: "ingest", body: body, idempotencyKey: "bulk-1")
            #expect(first.status == 200 && first.body.utf8.count > 64 << 10, "\(first.body.utf8.count) bytes")
            let retry = try await client.send(.post, "/v1/observations", key: "ingest", body: body, idempotencyKey: "bulk-1")
            #expect(retry.status == 200)
            #expect(retry.headers[.init("Idempotent-Replayed")!] == nil)
            #expect(try harness.eventCount() == 0)
        }
    }

    @Test("a 409 contention is not stored: the retry with the same key runs again and records the observation")
    func contentionNotStored() async throws {
        // One attempt: an app switch whose payment another moved on first is answered 409 at once, so the concurrent
        // ones below meet contention on any machine (with the default twenty, a fast one may see none).
        let harness = try ServiceHarness(contentionAttempts: 1)
        try await harness.run { client in
            #expect(try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1")).status == 201)
            // Sixty app switches to one payment at once, each with its own key and time: each append expects the
            // version it read, one of a group of them is committed at a time, and those that lost are answered 409
            // contention. A few rounds, in case one sees none.
            var contended: [(key: String, body: String)] = []
            for round in 0..<5 where contended.isEmpty {
                let key: @Sendable (Int) -> String = { "switch-\(round)-\($0)" }
                let body: @Sendable (Int) -> String = { #"{"at":"2026-11-22T1\#(round):\#(String(format: "%02d", $0)):00Z"}"# }
                let replies = try await client.sendAtOnce(
                    60, .post, "/v1/payments/p1/app-switch", key: "ingest", body: body, idempotencyKey: key)
                contended = replies.indices.filter { replies[$0].errorCode == "contention" }.map { (key($0), body($0)) }
            }
            let (key, body) = try #require(contended.first, "no app switch met contention")
            let before = try harness.eventCount()
            let retry = try await client.send(.post, "/v1/payments/p1/app-switch", key: "ingest", body: body, idempotencyKey: key)
            #expect(retry.status == 200, "\(retry.body)")
            #expect(retry.headers[.init("Idempotent-Replayed")!] == nil)
            #expect(retry.json["events_appended"] as? Int == 1)
            #expect(try harness.eventCount() == before + 1)
        }
    }

    @Test("a 404 for a payment not recorded yet is not stored: the app switch's retry, once the request is, records it")
    func switchBeforeRequest() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let body = #"{"at":"2026-11-21T09:00:02Z","note":"opened Square"}"#
            let early = try await client.send(.post, "/v1/payments/p1/app-switch", key: "ingest", body: body, idempotencyKey: "sw-1")
            #expect(early.status == 404)
            #expect(early.errorCode == "not_found")
            #expect(try harness.eventCount() == 0)
            let request = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1"))
            #expect(request.status == 201)
            let retry = try await client.send(.post, "/v1/payments/p1/app-switch", key: "ingest", body: body, idempotencyKey: "sw-1")
            #expect(retry.status == 200, "\(retry.body)")
            #expect(retry.headers[.init("Idempotent-Replayed")!] == nil)
            #expect(retry.json["events_appended"] as? Int == 1)
            // Now answered, the key's answer is stored like any other.
            let again = try await client.send(.post, "/v1/payments/p1/app-switch", key: "ingest", body: body, idempotencyKey: "sw-1")
            #expect(again.headers[.init("Idempotent-Replayed")!] == "true")
            #expect(again.body == retry.body)
            #expect(try harness.eventCount() == 2)
        }
    }

    @Test("the same key with another body is 422 and appends nothing; keys are per API key; a 4xx answer is replayed too")
    func misuse() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            _ = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1"), idempotencyKey: "k")
            let other = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p2"), idempotencyKey: "k")
            #expect(other.status == 422)
            #expect(other.errorCode == "idempotency_key_reused")
            let otherPath = try await client.send(.post, "/v1/payments/p1/app-switch", key: "ingest", body: "{}", idempotencyKey: "k")
            #expect(otherPath.status == 422)
            // Another API key's "k" is its own.
            let admin = try await client.send(.post, "/v1/payments", key: "admin", body: Samples.squareBuild("p2"), idempotencyKey: "k")
            #expect(admin.status == 201)
            let bad = try await client.send(.post, "/v1/payments", key: "ingest", body: #"{"payment":"p3"}"#, idempotencyKey: "k-bad")
            #expect(bad.status == 400)
            let badAgain = try await client.send(.post, "/v1/payments", key: "ingest", body: #"{"payment":"p3"}"#, idempotencyKey: "k-bad")
            #expect(badAgain.status == 400)
            #expect(badAgain.body == bad.body)
            #expect(badAgain.headers[.init("Idempotent-Replayed")!] == "true")
            let invalid = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p4"), idempotencyKey: "has space")
            #expect(invalid.status == 400)
            #expect(invalid.errorCode == "invalid_idempotency_key")
            // Given twice, the header is named as repeated, not as a key with a comma in it.
            let twice = try await client.send(
                .post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p5"), idempotencyKey: "k-1",
                moreFields: [HTTPField(name: HTTPField.Name("Idempotency-Key")!, value: "k-2")])
            #expect(twice.status == 400)
            #expect(twice.errorCode == "invalid_idempotency_key")
            #expect(twice.body.contains("given 2 times"), "\(twice.body)")
            #expect(try harness.eventCount() == 2)
        }
    }

    @Test("answers survive a restart: the records are durable")
    func durable() async throws {
        let harness = try ServiceHarness()
        let storePath = harness.directory.path + "/store"
        let first = Mutex(ServiceHarness.Reply(status: 0, headers: [:], body: ""))
        try await harness.service.application().test(.live) { live in
            let client = ServiceHarness.Client(client: live, keys: harness.keys)
            let reply = try await client.send(.post, "/v1/observations", key: "ingest", body: #"{"kind":"request","payment":"d1","at":"2026-11-22T09:00:00Z","url":"\#(Samples.sumupLaunch("d"))"}"#, idempotencyKey: "batch-1")
            first.withLock { $0 = reply }
        }
        let reopened = try ServiceHarness(reopening: storePath, keys: harness.keys)
        try await reopened.run { client in
            let retry = try await client.send(.post, "/v1/observations", key: "ingest", body: #"{"kind":"request","payment":"d1","at":"2026-11-22T09:00:00Z","url":"\#(Samples.sumupLaunch("d"))"}"#, idempotencyKey: "batch-1")
            #expect(retry.headers[.init("Idempotent-Replayed")!] == "true")
            #expect(retry.body == first.withLock { $0.body })
            #expect(try reopened.eventCount() == 1)
        }
        harness.directory.remove()
    }

    @Test("a keyed request without at whose answer was lost (the server died before storing it) appends nothing on retry")
    func lostAnswerRetry() async throws {
        let harness = try ServiceHarness()
        let secret = try #require(harness.keys["ingest"])
        let owner = try #require(try APIKeyStore(database: harness.database).authenticate(secret)).id
        try await harness.run { client in
            #expect(try await client.send(.post, "/v1/payments", key: "ingest", body: #"{"payment":"r1","url":"\#(Samples.sumupLaunch("r1"))"}"#).status == 201)
            let requests: [(path: String, body: String)] = [
                ("/v1/payments/r1/app-switch", #"{"note":"to SumUp"}"#),
                ("/v1/payments/r1/callbacks", #"{"url":"\#(Samples.sumupCallback("r1"))"}"#),
            ]
            for (index, request) in requests.enumerated() {
                let key = "lost-\(index)"
                let first = try await client.send(.post, request.path, key: "ingest", body: request.body, idempotencyKey: key)
                #expect(first.json["events_appended"] as? Int == 1, "\(first.body)")
                let events = try harness.eventCount()
                // The server died after the append and before the answer was stored: no answer is kept.
                try harness.database.environment.write { txn in
                    _ = try txn.delete(IdempotencyStore.recordKey(owner: owner, key: key), in: harness.database.idempotency)
                }
                let retry = try await client.send(.post, request.path, key: "ingest", body: request.body, idempotencyKey: key)
                #expect(retry.headers[.init("Idempotent-Replayed")!] == nil, "it ran again")
                #expect(retry.json["events_appended"] as? Int == 0 && retry.json["already_recorded"] as? Bool == true, "\(retry.body)")
                #expect(try harness.eventCount() == events, "\(request.path): no second switch, no callback 'delivered again'")
            }
            // A build-mode request: the retry answers the reference and URL the lost answer carried.
            let build = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("b1"), idempotencyKey: "lost-build")
            #expect(build.status == 201, "\(build.body)")
            let events = try harness.eventCount()
            try harness.database.environment.write { txn in
                _ = try txn.delete(IdempotencyStore.recordKey(owner: owner, key: "lost-build"), in: harness.database.idempotency)
            }
            let again = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("b1"), idempotencyKey: "lost-build")
            #expect(again.status == 200 && again.json["events_appended"] as? Int == 0, "\(again.body)")
            #expect(again.json["reference"] as? String == build.json["reference"] as? String)
            #expect(again.json["launch_url"] as? String == build.json["launch_url"] as? String)
            #expect(try harness.eventCount() == events)
            // Without a key, the same callback later is a delivery of its own.
            let unkeyed = try await client.send(.post, "/v1/payments/r1/callbacks", key: "ingest", body: requests[1].body)
            #expect(unkeyed.json["events_appended"] as? Int == 1, "\(unkeyed.body)")
        }
    }
}
