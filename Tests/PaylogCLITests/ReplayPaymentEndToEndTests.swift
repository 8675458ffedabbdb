import Foundation
import TestSupport
import Testing

/// `paylog replay --payment ID --at VERSION`: a payment as it stood after its first VERSION events.
@Suite("paylog replay --payment --at")
struct ReplayPaymentEndToEndTests {
    @Test("a version past the payment's last is answered with all of it, and the header says the version does not exist")
    func versionPastTheLast() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path + "/store"]
        let request = try PaylogProcess.requestPayment(store: dir.path + "/store")
        #expect(request.status == 0, "\(request.stderr)")
        #expect(try PaylogProcess.run(["switch", "pay-1"] + store).status == 0)
        #expect(try PaylogProcess.run(["fail", "pay-1", "--reason", "no callback in 120 s"] + store).status == 0)

        func header(_ at: String) throws -> String {
            let run = try PaylogProcess.run(["replay", "--payment", "pay-1", "--at", at] + store)
            #expect(run.status == 0, "\(run.stderr)")
            return String(try #require(run.stdout.split(separator: "\n").first))
        }
        #expect(try header("2") == "payment pay-1 as of 2: 2 event(s)")
        #expect(try header("3") == "payment pay-1 as of 3: 3 event(s)")
        #expect(try header("7") == "payment pay-1 as of 7: 3 event(s); it has no version 7 (its last is 3): this is all of it")
    }
}
