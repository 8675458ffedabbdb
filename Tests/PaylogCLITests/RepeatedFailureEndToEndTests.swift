import Foundation
import TestSupport
import Testing

/// `paylog fail` on a payment already failed: the log keeps every distinct observation (Docs/events.md, *Failed*).
@Suite("a failure of a payment already failed, end to end")
struct RepeatedFailureEndToEndTests {
    @Test("a second failure with another reason is recorded as evidence that fails nothing; the same one again is recognised")
    func secondFailure() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/store"
        let request = try PaylogProcess.requestPayment(store: store)
        #expect(request.status == 0, "\(request.stderr)")
        let first = try PaylogProcess.run([
            "fail", "pay-1", "--reason", "no callback in 120 s", "--at", "2026-11-21T10:02:00Z", "--store", store,
        ])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("1 event(s) appended; status failed, version 2"))

        let second = try PaylogProcess.run([
            "fail", "pay-1", "--reason", "till operator cancelled", "--at", "2026-11-21T10:03:00Z", "--store", store,
        ])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("1 event(s) appended; status failed, version 3"), "\(second.stdout)")

        let again = try PaylogProcess.run([
            "fail", "pay-1", "--reason", "till operator cancelled", "--at", "2026-11-21T10:03:00Z", "--store", store,
        ])
        #expect(again.stdout.contains("already recorded; nothing appended"))

        let audit = try PaylogProcess.run(["audit", "pay-1", "--json", "--store", store])
        #expect(audit.status == 0, "\(audit.stderr)")
        let timeline = try #require(try PaylogProcess.jsonObject(audit.stdout)["timeline"] as? [[String: Any]])
        #expect(timeline.count == 3)
        #expect(timeline.last?["evidence"] as? String == "till operator cancelled")
        let notes = timeline.last?["notes"] as? [String] ?? []
        #expect(notes.contains("a further failure of a payment already failed: it fails nothing, and the first failure stands"), "\(notes)")
        let status = try PaylogProcess.run(["status", "pay-1", "--json", "--store", store])
        let payment = try PaylogProcess.jsonObject(status.stdout)
        #expect(payment["status"] as? String == "failed" && payment["version"] as? Int == 3)
    }
}
