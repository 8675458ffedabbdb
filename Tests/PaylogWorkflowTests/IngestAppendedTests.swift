import PaylogStore
import Testing
import TestSupport

@testable import PaylogWorkflow

/// What a batch ingest tells its caller each line appended (`paylog serve` counts the findings on it).
@Suite("Ingest tells what each line appended")
struct IngestAppendedTests {
    @Test("every appended event is told once, by payment and version, in order; an ingest that appends nothing tells nothing")
    func toldOnce() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try PaymentWorkflow.openStore(at: dir.path)
        defer { store.close() }
        let workflow = PaymentWorkflow(store: store, actor: "t")
        let lines = try DemoDay(payments: 120, seed: 17).plan().lines
        var told: [AppendedEvents] = []
        let report = await workflow.ingest(lines: lines, batchSize: 64) { told.append($0) }
        #expect(report.eventsAppended > 400)
        #expect(told.reduce(0) { $0 + $1.versions.count } == report.eventsAppended)
        // Per payment, the versions told follow each other from 1 to the stream's last version.
        var next: [String: UInt64] = [:]
        for appended in told {
            #expect(appended.versions.lowerBound == (next[appended.paymentID] ?? 0) + 1, "\(appended)")
            next[appended.paymentID] = appended.versions.upperBound
        }
        for (payment, last) in next { #expect(try store.version(of: payment) == last, "\(payment)") }
        #expect(UInt64(report.eventsAppended) == (try store.lastPosition()))

        var toldAgain: [AppendedEvents] = []
        let again = await workflow.ingest(lines: lines, batchSize: 64) { toldAgain.append($0) }
        #expect(again.eventsAppended == 0 && again.accepted == report.accepted)
        #expect(toldAgain.isEmpty)
    }
}
