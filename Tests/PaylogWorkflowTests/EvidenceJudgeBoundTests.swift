import PaylogCompatibility
import PaylogStore
import PaylogWorkflow
import TestSupport
import Testing

/// A whole-log replay's judge keeps only the latest payments' requests and hashes of references, and re-reads the rest
/// from the store: what it finds must be what a judge keeping everything finds.
@Suite("Evidence judge, bounded")
struct EvidenceJudgeBoundTests {
    /// Every finding of `judge` over `store`'s log, in log order.
    static func findings(_ judge: consuming EvidenceJudge, over store: EventStore) throws -> [Finding] {
        // Judged outside any read transaction of the store, as the replay judges (the judge's re-reads open their own).
        let events = try store.read(from: 1, limit: 1_000_000)
        var found: [Finding] = []
        for event in events { found += judge.judge(event, decoded: try EventCodec.decode(event)).findings }
        return found
    }

    @Test("keeping the requests of one, two or five payments finds exactly what keeping every payment's does", arguments: [1, 2, 5])
    func sameFindings(capacity: Int) async throws {
        // A demo day (late and duplicate callbacks, retries, offline payments, contract violations) and, after it,
        // requests reusing references, a retry and a late callback for payments whose requests were long let go.
        var lines = try DemoDay(payments: 60, seed: 7).plan().lines
        lines += [
            AttemptIngestTests.sumupRequest("p1", "dup", at: "2026-11-23T09:00:00Z"),
            AttemptIngestTests.fail("p1", at: "2026-11-23T09:02:00Z"),
            AttemptIngestTests.sumupRequest("p1", "dup", at: "2026-11-23T09:05:00Z"),
            AttemptIngestTests.sumupRequest("p2", "dup", at: "2026-11-23T09:06:00Z"),
            AttemptIngestTests.sumupRequest("p3", "fresh", at: "2026-11-23T09:07:00Z"),
            AttemptIngestTests.sumupRequest("p4", "dup", at: "2026-11-23T09:08:00Z"),
            AttemptIngestTests.success("fresh", tx: "TX-F", at: "2026-11-23T10:00:00Z"),
            AttemptIngestTests.declined("dup", at: "2026-11-23T10:01:00Z"),
        ]
        try await RecordedDay.with(lines) { workflow in
            let everything = try Self.findings(EvidenceJudge(), over: workflow.store)
            let bounded = try Self.findings(EvidenceJudge(rereading: workflow.store, keepingRequestsOf: capacity), over: workflow.store)
            #expect(everything.contains { $0.rule == "evidence.reference-reused" && $0.payment == "p4" })
            #expect(everything.count > 10)
            #expect(bounded == everything)
        }
    }
}
