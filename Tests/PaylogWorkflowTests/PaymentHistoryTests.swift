import Foundation
import PaylogDomain
import PaylogStore
import PaylogWorkflow
import TestSupport
import Testing

@Suite("Time travel")
struct PaymentHistoryTests {
    @Test("replaying to every version and every observed time gives exactly the state after that many events")
    func everyPosition() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let plan = try DemoDay(payments: 24, seed: 7).plan()
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let report = await workflow.ingest(lines: plan.lines)
        #expect(report.rejected == 0)
        for payment in try PaymentsProjection.payments(in: workflow.store) {
            let full = try PaymentHistory.steps(of: payment.id, in: workflow.store)
            #expect(full.count == Int(payment.version))
            #expect(full.last?.state == payment, "the replayed end state equals the live status view")
            for version in 1...payment.version {
                let partial = try PaymentHistory.steps(of: payment.id, in: workflow.store, upTo: .version(version))
                #expect(partial.count == Int(version))
                // The state after N events is what evolving the first N events gives, independently computed.
                var independent: Payment?
                for recorded in try workflow.store.readStream(payment.id, limit: Int(version)) {
                    Payment.evolve(&independent, recorded: recorded, decoded: try EventCodec.decode(recorded))
                }
                #expect(partial.last?.state == independent)
                let observed = try #require(partial.last?.event.observedAt)
                let byTime = try PaymentHistory.steps(of: payment.id, in: workflow.store, upTo: .time(observed))
                #expect(byTime.count >= partial.count - 0 && byTime.last?.event.observedAt == observed)
            }
            let before = try PaymentHistory.steps(of: payment.id, in: workflow.store, upTo: .time(Timestamp(microseconds: 0)))
            #expect(before.isEmpty)
        }
    }

    @Test("an unknown payment is a clear error")
    func unknown() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try PaymentWorkflow.openStore(at: dir.path)
        defer { store.close() }
        #expect { _ = try PaymentHistory.steps(of: "ghost", in: store) } throws: { "\($0)".contains("No payment ghost") }
    }

    @Test("--at parses versions and RFC 3339 times, and nothing else")
    func cutoffArgument() {
        #expect(HistoryCutoff(argument: "3") == .version(3))
        #expect(HistoryCutoff(argument: "2026-11-21T08:00:00Z") == .time(Timestamp(rfc3339: "2026-11-21T08:00:00Z")!))
        #expect(HistoryCutoff(argument: "yesterday") == nil)
    }
}
