import Foundation
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

/// `paylog demo --payments N` records what it plans for any N: a long day packs its requests closer instead of
/// reconciling payments before they were requested.
@Suite("Demo day")
struct DemoDayTests {
    @Test("a day of 2,000 payments is recorded whole: every line accepted, every report line after its request")
    func longDay() async throws {
        let plan = try DemoDay(payments: 2_000, seed: 7).plan()
        var requested: [String: Timestamp] = [:]
        var lastRequest = Timestamp(microseconds: 0)
        var firstReport = Timestamp(microseconds: .max)
        for line in plan.lines {
            switch try Observation.parse(line) {
            case .request(let payment, let at, _, _):
                requested[payment] = requested[payment] ?? at
                lastRequest = max(lastRequest, at)
            case .reconcile(let at, _):
                firstReport = min(firstReport, at)
            default:
                break
            }
        }
        #expect(requested.count == 2_000)
        #expect(lastRequest < firstReport, "the next morning's report comes after the day's last request")
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let report = await workflow.ingest(lines: plan.lines)
        #expect(report.rejected == 0, "\(report.errors.prefix(3))")
        let reconciled = try PaymentsProjection.payments(in: workflow.store).filter { $0.status == .reconciled }.count
        #expect(reconciled >= plan.scenarios["offline, reconciled later", default: 0], "every planted reconciliation holds")
        // No scenario plants an amount mismatch, and the planted contract breaches (one every 97 payments, so several
        // Square ones here) plant nothing else: a mismatch would be a fact the demo's summary never announced.
        let mismatched = try PaymentsProjection.payments(in: workflow.store).filter(\.hadAmountMismatch).map(\.id)
        #expect(mismatched.isEmpty, "unannounced amount mismatches: \(mismatched.prefix(5))")
    }

    @Test("a day of up to 528 payments keeps its pace: requests 150 s apart, as the bench's logs were built")
    func shortDayUnchanged() throws {
        let lines = try DemoDay(payments: 528, seed: 7).plan().lines
        let times = try lines.compactMap { line -> Timestamp? in
            guard case .request(let payment, let at, _, _) = try Observation.parse(line), payment == "pay-0528" else { return nil }
            return at
        }
        let start = Timestamp(rfc3339: "2026-11-21T08:00:00Z")!.microseconds
        let offset = try #require(times.first).microseconds - start - 527 * 150_000_000
        #expect((0..<60_000_000).contains(offset), "pay-0528 requested 527 × 150 s after the start, plus under a minute")
    }
}
