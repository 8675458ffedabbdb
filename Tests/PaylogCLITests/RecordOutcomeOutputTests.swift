import Foundation
import TestSupport
import Testing

/// What a recording command prints when it appends nothing: the reason must be the true one, since a support engineer
/// reads it as a statement about the log.
@Suite("recording commands say truly why nothing was appended")
struct RecordOutcomeOutputTests {
    @Test("a second failure with another reason is not called a repeat: the output says the first failure stands")
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
        #expect(first.stdout.contains("1 event(s) appended"))

        let second = try PaylogProcess.run([
            "fail", "pay-1", "--reason", "till operator cancelled", "--at", "2026-11-21T10:03:00Z", "--store", store,
        ])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("nothing appended (it had already failed"))
        #expect(!second.stdout.contains("repeats"))

        let again = try PaylogProcess.run([
            "fail", "pay-1", "--reason", "no callback in 120 s", "--at", "2026-11-21T10:02:00Z", "--store", store,
        ])
        #expect(again.stdout.contains("already recorded; nothing appended"))

        let audit = try PaylogProcess.run(["audit", "pay-1", "--store", store])
        #expect(audit.status == 0, "\(audit.stderr)")
        #expect(audit.stdout.contains("no callback in 120 s"))
        #expect(!audit.stdout.contains("till operator cancelled"))
    }
}
