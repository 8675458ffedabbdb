import Foundation
import Testing

@Suite("HTTP: Square web callback")
struct SquareWebCallbackTests {
    static func callbackURI(state: String, status: String = "ok", transaction: String = "tx-1") -> String {
        callbackURI(data: #"{"status":"\#(status)","transaction_id":"\#(transaction)","client_transaction_id":"ctx-1","state":"\#(state)"}"#)
    }

    /// The callback of payment p1 whose `data` is `data`.
    static func callbackURI(data: String) -> String {
        "/v1/callbacks/square?paylog_payment=p1&data=" + data.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    @Test("Square's GET needs no key, is routed by the minted state, and is recorded exactly as observed")
    func routed() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let created = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1"))
            let state = try #require(created.json["reference"] as? String)
            let uri = Self.callbackURI(state: state)
            let reply = try await client.send(.get, uri)
            #expect(reply.status == 200)
            #expect(reply.json["payment"] as? String == "p1")
            #expect(reply.json["status"] as? String == "completed")
            let audit = try await client.send(.get, "/v1/payments/p1/audit", key: "audit")
            let timeline = try #require(audit.json["timeline"] as? [[String: Any]])
            #expect(timeline.count == 2)
            #expect(timeline.last?["evidence"] as? String == "https://pos.example.test" + uri)
            #expect(try harness.eventCount() == 2)
        }
    }

    @Test("without public_base_url the observed URL carries the port the server is bound to, not the configured 0")
    func boundPort() async throws {
        let harness = try ServiceHarness { $0.publicBaseURL = nil }
        try await harness.run { client in
            let created = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1"))
            let state = try #require(created.json["reference"] as? String)
            let uri = Self.callbackURI(state: state)
            #expect(try await client.send(.get, uri).status == 200)
            let port = try #require(client.client.port)
            #expect(port != 0)
            let audit = try await client.send(.get, "/v1/payments/p1/audit", key: "audit")
            let timeline = try #require(audit.json["timeline"] as? [[String: Any]])
            #expect(timeline.last?["evidence"] as? String == "http://127.0.0.1:\(port)" + uri)
        }
    }

    @Test("an unknown state, a replayed state, another provider's payment or missing data append nothing")
    func refused() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let created = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1"))
            let state = try #require(created.json["reference"] as? String)
            _ = try await client.send(.post, "/v1/payments", key: "ingest", body: #"{"payment":"s1","url":"\#(Samples.sumupLaunch("sumup-ref"))"}"#)
            let before = try harness.eventCount()
            #expect(try await client.send(.get, Self.callbackURI(state: "0123456789abcdef0123456789abcdef")).status == 404)
            #expect(try await client.send(.get, Self.callbackURI(state: "sumup-ref")).status == 404)
            #expect(try await client.send(.get, "/v1/callbacks/square").status == 400)
            #expect(try await client.send(.get, "/v1/callbacks/square?data=%7Bnot").status == 400)
            #expect(try harness.eventCount() == before)
            #expect(try await client.send(.get, Self.callbackURI(state: state)).status == 200)
            let replay = try await client.send(.get, Self.callbackURI(state: state, transaction: "tx-forged"))
            #expect(replay.status == 404)
            #expect(try harness.eventCount() == before + 1)
            let payment = try await client.send(.get, "/v1/payments/p1", key: "read")
            #expect(payment.json["transaction_id"] as? String == "tx-1")
        }
    }

    @Test("a payment requested again after a declined attempt takes the callback for its new state; used states stay refused")
    func retriedWithNewState() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            func request(at time: String) async throws -> String {
                let body = Samples.squareBuild("p1").replacingOccurrences(of: "}", with: #","at":"\#(time)"}"#)
                let reply = try await client.send(.post, "/v1/payments", key: "ingest", body: body)
                #expect(reply.status == 201)
                return try #require(reply.json["reference"] as? String)
            }
            let first = try await request(at: "2026-11-21T11:00:00Z")
            let declined = try await client.send(
                .get, Self.callbackURI(data: #"{"status":"error","error_code":"payment_canceled","state":"\#(first)"}"#))
            #expect(declined.status == 200)
            #expect(declined.json["status"] as? String == "failed")
            let second = try await request(at: "2026-11-21T11:05:00Z")
            #expect(second != first)
            let before = try harness.eventCount()
            let paid = try await client.send(.get, Self.callbackURI(state: second))
            #expect(paid.status == 200, "\(paid.body)")
            #expect(paid.json["status"] as? String == "completed")
            // Each state is answered once.
            #expect(try await client.send(.get, Self.callbackURI(state: first, transaction: "tx-late")).status == 404)
            #expect(try await client.send(.get, Self.callbackURI(state: second, transaction: "tx-forged")).status == 404)
            #expect(try harness.eventCount() == before + 1)
            let payment = try await client.send(.get, "/v1/payments/p1", key: "read")
            #expect(payment.json["transaction_id"] as? String == "tx-1")
        }
    }

    /// The test client may carry these one after another, so this holds the answers, not the race: the race (the
    /// check and the record in one write) is held by `GuardedRecordTests`.
    @Test("twenty callbacks for one state sent at once: one is recorded and answered 200, the others 404")
    func concurrentCallbacks() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let created = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1"))
            let state = try #require(created.json["reference"] as? String)
            let before = try harness.eventCount()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 1...20 {
                    group.addTask { try await client.send(.get, Self.callbackURI(state: state, transaction: "tx-\(index)")).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 404 }.count == 19, "\(statuses)")
            #expect(try harness.eventCount() == before + 1)
            let payment = try await client.send(.get, "/v1/payments/p1", key: "read")
            #expect(payment.json["callbacks"] as? Int == 1)
        }
    }

    @Test("a query with data given twice is 400 and appends nothing: the state checked must be the one recorded")
    func repeatedData() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let created = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1"))
            let state = try #require(created.json["reference"] as? String)
            let before = try harness.eventCount()
            let other = #"{"status":"error","error_code":"payment_canceled","state":"other"}"#
                .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let reply = try await client.send(.get, Self.callbackURI(state: state) + "&data=" + other)
            #expect(reply.status == 400)
            #expect(reply.errorMessage.contains("2 times"))
            #expect(try harness.eventCount() == before)
        }
    }

    @Test("a data object naming state twice is checked as it is recorded (the first), so it cannot replay the other")
    func repeatedStateKey() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let created = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1"))
            let state = try #require(created.json["reference"] as? String)
            let before = try harness.eventCount()
            // The first `state` is a junk one, the last the payment's: as recorded, the callback echoes the first.
            for attempt in 0..<3 {
                let forged = #"{"status":"ok","transaction_id":"tx-forged-\#(attempt)","client_transaction_id":"c","state":"junk","state":"\#(state)"}"#
                #expect(try await client.send(.get, Self.callbackURI(data: forged)).status == 404, "attempt \(attempt)")
            }
            #expect(try harness.eventCount() == before)
            // With the payment's state first, it is the one checked and recorded: once.
            let real = #"{"status":"ok","transaction_id":"tx-1","client_transaction_id":"c","state":"\#(state)","state":"junk"}"#
            #expect(try await client.send(.get, Self.callbackURI(data: real)).status == 200)
            #expect(try await client.send(.get, Self.callbackURI(state: state, transaction: "tx-again")).status == 404)
            #expect(try harness.eventCount() == before + 1)
        }
    }

    @Test("HEAD on the callback records nothing (405): a link previewer must not use up Square's state")
    func headRecordsNothing() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let created = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1"))
            let state = try #require(created.json["reference"] as? String)
            let before = try harness.eventCount()
            let head = try await client.send(.head, Self.callbackURI(state: state))
            #expect(head.status == 405)
            #expect(head.headers[.allow] == "GET")
            #expect(try harness.eventCount() == before)
            #expect(try await client.send(.get, Self.callbackURI(state: state)).status == 200)
            #expect(try harness.eventCount() == before + 1)
        }
    }
}
