import Foundation
import PaylogPresentation
@testable import PaylogService
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

/// `POST /v1/observations` records a body as `paylog ingest` records a file: in batches, each in a write session,
/// with the same report, and every finding on what it recorded counted in `/metrics`.
@Suite("JSON Lines bodies recorded in batches")
struct ObservationBatchTests {
    /// `paylog_findings_total`'s counts by rule and severity in a `/metrics` text.
    static func findingCounts(in metrics: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in metrics.split(separator: "\n") where line.hasPrefix("paylog_findings_total{") {
            guard let space = line.lastIndex(of: " "), let value = Int(line[line.index(after: space)...]) else { continue }
            counts[String(line[..<space]), default: 0] += value
        }
        return counts
    }

    @Test("a day's observations in one body: the report paylog ingest gives, a commit per batch, every finding counted")
    func batched() async throws {
        let lines = try DemoDay(payments: 300, seed: 41).plan().lines + [#"{"kind":"refund","payment":"nobody"}"#]
        #expect(lines.count > 1_000)
        let expectedReport = try await TemporaryDirectoryStore().ingestReport(lines)
        let harness = try ServiceHarness()
        try await harness.run { client in
            let reply = try await client.send(.post, "/v1/observations", key: "ingest", body: lines.joined(separator: "\n") + "\n")
            #expect(reply.status == 200, "\(reply.body)")
            #expect(reply.body == expectedReport)
            #expect(reply.json["rejected"] as? Int == 1)
            let events = try harness.eventCount()
            #expect(events > 1_000 && reply.json["events_appended"] as? Int == Int(events))

            let metrics = try await client.send(.get, "/metrics").body
            // Batches of at least 512 lines (the last may be smaller): one commit per line recorded them 100 times
            // slower, at the disk's rate of durable commits.
            let commits = metrics.split(separator: "\n").first { $0.hasPrefix("paylog_group_commit_size_count ") }
                .flatMap { Int($0.split(separator: " ")[1]) }
            let most = lines.count / 512 + 1
            #expect(commits.map { $0 >= 1 && $0 <= most } == true, "commits: \(String(describing: commits)), at most \(most)")
            #expect(metrics.contains(#"paylog_events_appended_total{endpoint="observations"} \#(events)"#), "\(metrics)")

            // Every finding on the recorded evidence, once each: as the audit of each payment lists them.
            var expected: [String: Int] = [:]
            for payment in try PaymentsProjection.payments(in: harness.store) {
                for entry in try PaymentAudit.entries(of: payment.id, in: harness.store) {
                    for finding in entry.findings {
                        expected[#"paylog_findings_total{rule="\#(finding.rule)",severity="\#(finding.severity.rawValue)"}"#, default: 0] += 1
                    }
                }
            }
            #expect(!expected.isEmpty)
            #expect(Self.findingCounts(in: metrics) == expected)
        }
    }

    @Test("a body the store cannot record is 503 naming the first line not recorded, and says what to send again",
          arguments: [3, 40])
    func storeFails(lineCount: Int) async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let lines = Array(try DemoDay(payments: 20, seed: 3).plan().lines.prefix(lineCount))
            harness.store.close()
            let reply = try await client.send(.post, "/v1/observations", key: "ingest", body: lines.joined(separator: "\n"))
            #expect(reply.status == 503, "\(reply.body)")
            #expect(reply.errorCode == "storage_unavailable")
            let message = (reply.json["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains("could not be written at line 1;") && message.contains("Send the lines from 1 on again"), "\(message)")
            #expect(!reply.body.contains(harness.directory.path))
        }
    }

    /// A till's body: one SumUp payment's request, app switch and successful callback.
    static func tillBody(_ till: Int) -> String {
        let payment = "till-\(till)"
        let url = "sumupmerchant://pay/1.0?amount=\(till + 1).50&currency=EUR&affiliate-key=k&foreign-tx-id=ref-\(till)"
            + "&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail"
        return [
            #"{"kind":"request","payment":"\#(payment)","at":"2026-11-22T10:00:00Z","app_version":"1.88.0","url":"\#(url)"}"#,
            #"{"kind":"app_switch","payment":"\#(payment)","at":"2026-11-22T10:00:01Z"}"#,
            #"{"kind":"callback","at":"2026-11-22T10:00:30Z","url":"myshop://ok?smp-status=success&smp-tx-code=TX\#(till)&foreign-tx-id=ref-\#(till)"}"#,
        ].joined(separator: "\n") + "\n"
    }

    @Test("short bodies are write sessions too: tills sending at once are all recorded, each with its own report")
    func shortBodiesAreSessions() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let statistics = harness.store.writerStatistics
            let (appendsBefore, sessionsBefore) = (statistics.appends, statistics.sessions)
            let replies = try await client.sendAtOnce(24, .post, "/v1/observations", key: "ingest") { Self.tillBody($0) }
            for reply in replies {
                #expect(reply.status == 200, "\(reply.body)")
                #expect(reply.json["accepted"] as? Int == 3 && reply.json["events_appended"] as? Int == 3, "\(reply.body)")
            }
            #expect(try harness.eventCount() == 72)
            #expect(statistics.appends == appendsBefore, "no line through the append path")
            #expect(statistics.sessions - sessionsBefore == 24, "one write session a body")
            let payments = try PaymentsProjection.payments(in: harness.store)
            #expect(payments.count == 24 && payments.allSatisfy { $0.status == .completed }, "\(payments.map(\.status))")
        }
    }

    @Test("a batched body reads its lines as paylog ingest does: a byte order mark skipped, a line not UTF-8 rejected naming the byte, never recorded")
    func batchedBodyText() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let lines = Array(try DemoDay(payments: 20, seed: 12).plan().lines.prefix(30))
            var body: [UInt8] = [0xEF, 0xBB, 0xBF]
            for (index, line) in lines.enumerated() {
                body += Array(line.utf8)
                // Line 11: a request of its own whose reason holds a byte that is not UTF-8.
                if index == 9 { body += Array("\n{\"kind\":\"fail\",\"payment\":\"p-bad\",\"at\":\"2026-11-22T09:00:00Z\",\"reason\":\"caf".utf8) + [0xE9] + Array("\"}".utf8) }
                body += [0x0A]
            }
            let reply = try await client.send(.post, "/v1/observations", key: "ingest", bytes: body)
            #expect(reply.status == 200, "\(reply.body)")
            #expect(reply.json["lines"] as? Int == 31, "\(reply.body)")
            let errors = try #require(reply.json["errors"] as? [[String: Any]])
            #expect(errors.count == 1 && errors.first?["line"] as? Int == 11, "\(reply.body)")
            #expect((errors.first?["message"] as? String)?.hasPrefix("not valid UTF-8 (byte 0xE9") == true, "\(reply.body)")
            #expect(try harness.eventCount() == UInt64(reply.json["events_appended"] as? Int ?? -1))
            #expect(try harness.store.version(of: "p-bad") == 0, "the line not UTF-8 recorded nothing")
            // The first line was read without its byte order mark: recorded, not rejected as bad JSON.
            #expect(reply.json["accepted"] as? Int == 30, "\(reply.body)")
        }
    }

    @Test("the findings a body counts are those on the versions it appended, not on what another request appended meanwhile")
    func findingsOnOwnVersions() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let at = ["2026-11-22T09:00:00Z", "2026-11-22T09:00:30Z", "2026-11-22T09:00:40Z"]
            _ = try await client.send(.post, "/v1/observations", key: "ingest",
                body: #"{"kind":"request","payment":"f1","at":"\#(at[0])","url":"\#(Samples.sumupLaunch("ref-f1"))"}"#)
            // Two callbacks without foreign-tx-id: each has a finding (versions 2 and 3).
            for (code, time) in [("A", at[1]), ("B", at[2])] {
                let callback = #"{"kind":"callback","payment":"f1","at":"\#(time)","url":"myshop://ok?smp-status=success&smp-tx-code=TX\#(code)"}"#
                #expect(try await client.send(.post, "/v1/observations", key: "ingest", body: callback).status == 200)
            }
            let onVersion = { (version: UInt64) throws -> Int in
                try PaymentAudit.entries(of: "f1", in: harness.store).filter { $0.event.version == version }.reduce(0) { $0 + $1.findings.count }
            }
            #expect(try onVersion(2) > 0 && onVersion(3) > 0)
            let before = Self.findingCounts(in: try await client.send(.get, "/metrics").body).values.reduce(0, +)
            harness.service.countFindings(of: "f1", in: [2...2])
            let after = Self.findingCounts(in: try await client.send(.get, "/metrics").body).values.reduce(0, +)
            #expect(after - before == (try onVersion(2)))
        }
    }
}
