import Foundation
import Testing

@Suite("HTTP: reading views")
struct ReadEndpointTests {
    @Test("personal data in the audit and replay views is shown only to keys with the audit scope")
    func personalData() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            _ = try await client.send(.post, "/v1/payments", key: "ingest", body: #"{"payment":"s1","url":"\#(Samples.sumupLaunch("r"))"}"#)
            let reader = try await client.send(.get, "/v1/payments/s1/audit", key: "read")
            #expect(reader.status == 200)
            #expect(!reader.body.contains("jane"))
            #expect(reader.body.contains("personal data hidden"))
            let auditor = try await client.send(.get, "/v1/payments/s1/audit", key: "audit")
            #expect(auditor.body.contains("jane%40example.com"))
            let replayRead = try await client.send(.get, "/v1/payments/s1/replay", key: "read")
            #expect(!replayRead.body.contains("jane") && replayRead.body.contains("REDACTED"))
            let replayAudit = try await client.send(.get, "/v1/payments/s1/replay", key: "audit")
            #expect(replayAudit.body.contains("jane%40example.com"))
        }
    }

    @Test("replay ?at= shows the payment as it stood at a version or a time")
    func timeTravel() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            _ = try await client.send(.post, "/v1/payments", key: "ingest", body: #"{"payment":"s1","url":"\#(Samples.sumupLaunch("r"))","at":"2026-11-22T09:00:00Z"}"#)
            _ = try await client.send(.post, "/v1/payments/s1/callbacks", key: "ingest", body: #"{"url":"\#(Samples.sumupCallback("r"))","at":"2026-11-22T09:05:00Z"}"#)
            let atOne = try await client.send(.get, "/v1/payments/s1/replay?at=1", key: "read")
            #expect((atOne.json["state"] as? [String: Any])?["status"] as? String == "requested")
            #expect((atOne.json["events"] as? [Any])?.count == 1)
            let atTime = try await client.send(.get, "/v1/payments/s1/replay?at=2026-11-22T09:04:00Z", key: "read")
            #expect((atTime.json["state"] as? [String: Any])?["status"] as? String == "requested")
            let now = try await client.send(.get, "/v1/payments/s1/replay", key: "read")
            #expect((now.json["state"] as? [String: Any])?["status"] as? String == "completed")
            // Before the first event: no events, and a null state (the key is there).
            let atZero = try await client.send(.get, "/v1/payments/s1/replay?at=0", key: "read")
            #expect(atZero.status == 200 && (atZero.json["events"] as? [Any])?.isEmpty == true)
            #expect(atZero.json.keys.contains("state") && atZero.json["state"] is NSNull, "\(atZero.body)")
        }
    }

    @Test("the listing pages with a cursor and filters; analytics and findings answer from the same views")
    func listing() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            for index in 0..<5 {
                _ = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p\(index)"))
            }
            // A SumUp launch that breaks the contract (a title over the limit is observed, not refused).
            let long = String(repeating: "T", count: 300)
            _ = try await client.send(.post, "/v1/payments", key: "ingest", body: #"{"payment":"s9","url":"sumupmerchant://pay/1.0?amount=10.00&currency=EUR&affiliate-key=AK&title=\#(long)&foreign-tx-id=z9&callbacksuccess=a%3A%2F%2Fb&callbackfail=a%3A%2F%2Fc"}"#)
            var seen: [String] = []
            var cursor: String?
            repeat {
                let uri = "/v1/payments?provider=square&limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.send(.get, uri, key: "read")
                let payments = try #require(page.json["payments"] as? [[String: Any]])
                #expect(payments.count <= 2)
                seen += payments.compactMap { $0["payment"] as? String }
                cursor = page.json["next_cursor"] as? String
            } while cursor != nil
            #expect(seen == ["p0", "p1", "p2", "p3", "p4"])
            let sumup = try await client.send(.get, "/v1/payments?provider=sumup", key: "read")
            #expect((sumup.json["payments"] as? [Any])?.count == 1)
            let analytics = try await client.send(.get, "/v1/analytics", key: "read")
            let cells = try #require(analytics.json["cells"] as? [[String: Any]])
            #expect(cells.map { $0["requested"] as? Int ?? 0 }.reduce(0, +) == 6)
            let findings = try await client.send(.get, "/v1/findings", key: "read")
            let list = try #require(findings.json["findings"] as? [[String: Any]])
            #expect(list.contains { $0["payment"] as? String == "s9" })
            #expect(!list.contains { ($0["payment"] as? String)?.hasPrefix("p") == true })
            #expect(findings.json["scanned_payments"] as? Int == 6)
            let firstRule = try #require(list.first?["rule"] as? String)
            let byRule = try await client.send(.get, "/v1/findings?rule=\(firstRule)", key: "read")
            #expect((byRule.json["findings"] as? [[String: Any]])?.allSatisfy { $0["rule"] as? String == firstRule } == true)
        }
    }

    @Test("/health, /ready and /metrics need no key; metrics count requests by route and status, appends, group commits and findings")
    func operations() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            #expect(try await client.send(.get, "/health").json["status"] as? String == "ok")
            _ = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1"))
            _ = try await client.send(.get, "/v1/payments/p1")
            let long = String(repeating: "T", count: 300)
            _ = try await client.send(.post, "/v1/payments", key: "ingest", body: #"{"payment":"s9","url":"sumupmerchant://pay/1.0?amount=10.00&currency=EUR&affiliate-key=AK&title=\#(long)&foreign-tx-id=z9&callbacksuccess=a%3A%2F%2Fb&callbackfail=a%3A%2F%2Fc"}"#)
            let ready = try await client.send(.get, "/ready")
            #expect(ready.json["events"] as? Int == 2)
            _ = try await client.send(.delete, "/v1/payments/p1", key: "read")
            _ = try await client.send(.get, "/v1/nowhere", key: "read")
            let metrics = try await client.send(.get, "/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = metrics.body
            #expect(text.contains(#"paylog_http_requests_total{route="/v1/payments",method="POST",status="201"} 2"#))
            #expect(text.contains(#"paylog_http_requests_total{route="/v1/payments/{id}",method="GET",status="401"} 1"#))
            // A 405 is counted under the route it names; a path no route serves under "unmatched".
            #expect(text.contains(#"paylog_http_requests_total{route="/v1/payments/{id}",method="DELETE",status="405"} 1"#), "\(text)")
            #expect(text.contains(#"paylog_http_requests_total{route="unmatched",method="GET",status="404"} 1"#), "\(text)")
            #expect(text.contains(#"paylog_events_appended_total{endpoint="payments"} 2"#))
            #expect(text.contains("paylog_group_commit_size_count 2"))
            #expect(text.contains(#"paylog_projection_lag_events{projection="payments"} 0"#))
            #expect(text.contains("paylog_findings_total{rule="))
            #expect(text.contains("paylog_append_duration_seconds_count"))
        }
    }

    @Test("paylog_group_commit_size counts the events each commit appended: not refused or already recorded appends; write sessions too")
    func groupCommitSize() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let created = try await client.send(.post, "/v1/payments", key: "ingest", body: Samples.squareBuild("p1"))
            let state = try #require(created.json["reference"] as? String)
            // Thirty app switches to one payment at once: of each group, one append is committed; the others, refused
            // by the expected version, are decided again and join a later group.
            let body: @Sendable (Int) -> String = { #"{"at":"2026-11-22T10:00:\#(String(format: "%02d", $0))Z"}"# }
            let switched = try await client.sendAtOnce(30, .post, "/v1/payments/p1/app-switch", key: "ingest", body: body)
            #expect(switched.allSatisfy { $0.status == 200 || $0.errorCode == "contention" })
            // A switch recorded, sent again, appends nothing.
            let recorded = try #require(switched.firstIndex { $0.status == 200 })
            let again = try await client.send(.post, "/v1/payments/p1/app-switch", key: "ingest", body: body(recorded))
            #expect(again.json["events_appended"] as? Int == 0)
            let lines = (0..<3).map { #"{"kind":"app_switch","payment":"p1","at":"2026-11-22T11:00:0\#($0)Z"}"# }
            let ingested = try await client.send(.post, "/v1/observations", key: "ingest", body: lines.joined(separator: "\n"))
            #expect(ingested.json["events_appended"] as? Int == 3)
            // Square's web callback is recorded in a write session of its own: its commit counts too.
            #expect(try await client.send(.get, SquareWebCallbackTests.callbackURI(state: state)).status == 200)
            let text = try await client.send(.get, "/metrics").body
            let events = Double(try harness.eventCount())
            #expect(MappedMemoryMetricsTests.sample("paylog_group_commit_size_sum", in: text) == events, "\(text)")
            let commits = try #require(MappedMemoryMetricsTests.sample("paylog_group_commit_size_count", in: text))
            #expect(commits >= 6 && commits <= events, "\(text)")
        }
    }
}
