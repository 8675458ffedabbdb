import Foundation
import TestSupport
import Testing

/// `paylog log`: the log in commit order from a global position.
@Suite("paylog log")
struct LogCommandEndToEndTests {
    @Test("a --from past the end says where the log ends, on standard error; the JSON stream stays empty")
    func fromPastTheEnd() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/store"
        #expect(try PaylogProcess.requestPayment(store: store).status == 0)
        #expect(try PaylogProcess.run(["switch", "pay-1", "--store", store]).status == 0)

        let last = try PaylogProcess.run(["log", "--from", "2", "--store", store])
        #expect(last.status == 0 && last.stdout.split(separator: "\n").count == 1 && last.stderr.isEmpty)
        for json in [false, true] {
            let past = try PaylogProcess.run(["log", "--from", "3", "--store", store] + (json ? ["--json"] : []))
            #expect(past.status == 0)
            #expect(past.stdout.isEmpty)
            #expect(past.stderr == "No event at or after position 3: the log ends at position 2.\n")
        }
    }
}
