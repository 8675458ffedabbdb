import PaylogDomain
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

/// Evidence already in a store never crashes a reader, whatever its times: imports check their range now, but a
/// store written before they did (or through the store's API) may hold any `Int64` of microseconds.
@Suite("Readers of extreme times")
struct ExtremeTimeReaderTests {
    @Test("a payment requested at Int64.min µs and called back at Int64.max µs reads, audits, replays and counts")
    func extremeTimes() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let request = try WorkflowFixtures.squareRequest(payment: "far", state: "st-far")
        _ = try await workflow.record(
            .request(request, builtByPaylog: false), payment: "far", observedAt: Timestamp(microseconds: .min), evidence: "req")
        _ = try await workflow.record(
            .receiveCallback(try WorkflowFixtures.squareOnline(state: "st-far")), payment: "far",
            observedAt: Timestamp(microseconds: .max), evidence: "cb")
        let texts = try workflow.store.readStream("far").map { $0.observedAt?.rfc3339 ?? "" }
        #expect(texts.count == 2 && texts.allSatisfy { $0.hasSuffix("Z") }, "\(texts)")
        #expect(try PaymentAudit.entries(of: "far", in: workflow.store).count == 2)
        #expect(try PaymentHistory.steps(of: "far", in: workflow.store).count == 2)
        // 2^64 µs apart is past what the latency histogram tracks: not counted there, and nothing traps, also when
        // the cell's percentiles are printed (its histograms built then).
        let cell = try #require(try Analytics.cells(in: workflow.store).first)
        #expect(cell.requested == 1 && cell.succeeded == 1 && cell.calledBack == 1)
        #expect(cell.requestToCallbackMsValues.isEmpty)
        #expect(Dictionary(uniqueKeysWithValues: cell.fields)["request_to_callback_ms_p50"] == "")
    }
}
