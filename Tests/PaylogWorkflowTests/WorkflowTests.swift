import TestSupport
import Foundation
import PaylogDomain
import PaylogProviders
import PaylogStore
import PaylogWorkflow
import Testing

@Suite("Workflow on a real store")
struct WorkflowTests {
    @Test("observations become events; the status view and routing index are current at once and survive reopening")
    func endToEnd() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let request = try WorkflowFixtures.squareRequest(payment: "p1", state: "st-abc")
        let callback = try WorkflowFixtures.squareOffline(state: "st-abc", client: "CTX-9")
        do {
            let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "test")
            let at = Timestamp(microseconds: 1_000_000)
            let first = try await workflow.record(.request(request, builtByPaylog: true), payment: "p1", observedAt: at, evidence: request.rawURL)
            #expect(first.eventsAppended == 1)
            #expect(try workflow.route("ref:st-abc") == "p1")
            let second = try await workflow.record(.receiveCallback(callback), payment: "p1", observedAt: at, evidence: callback.rawURL)
            #expect(second.eventsAppended == 2)
            #expect(second.payment.status == .offline)
            #expect(try PaymentsProjection.payment("p1", in: workflow.store)?.status == .offline)
            #expect(try workflow.route("ctx:CTX-9") == "p1")
            // The same observation again (a re-ingested file) appends nothing.
            let again = try await workflow.record(.receiveCallback(callback), payment: "p1", observedAt: at, evidence: callback.rawURL)
            #expect(again.wasAlreadyRecorded && again.eventsAppended == 0)
            #expect(try workflow.store.lastPosition() == 3)
            workflow.store.close()
        }
        let store = try PaymentWorkflow.openStore(at: dir.path)
        let types = try store.readStream("p1").map(\.type)
        #expect(types == ["Requested", "CallbackReceived", "Offline"])
        let decoded = try store.readStream("p1").map { try EventCodec.decode($0) }
        guard case .callbackReceived(let received) = decoded[1] else { Issue.record("expected a callback"); return }
        #expect(received.callbackURL == callback.rawURL, "the raw URL is kept exactly as observed")
        #expect(try PaymentsProjection.payments(in: store, status: .offline).map(\.id) == ["p1"])
        store.close()
    }

    @Test("inside one write session, each observation's outcome is its payment after it, also for a payment recorded earlier in the session")
    func sessionOutcomesAreCurrent() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try PaymentWorkflow.openStore(at: dir.path)
        defer { store.close() }
        let workflow = PaymentWorkflow(store: store, actor: "t")
        let observations = try DemoDay(payments: 6, seed: 5).plan().lines.map { try Observation.parse($0) }
        let outcomes = try await store.withWriteSession { session in
            try observations.map { observation in
                let outcome = try workflow.record(observation, in: session)
                return (outcome.paymentID, outcome.payment.version, outcome.eventsAppended)
            }
        }
        var appended: [String: UInt64] = [:]
        for (payment, version, events) in outcomes {
            appended[payment, default: 0] += UInt64(events)
            #expect(version == appended[payment], "\(payment)")
        }
        #expect(outcomes.count > 12 && appended.values.allSatisfy { $0 >= 2 })
    }

    @Test("the status view is rebuilt from the log when it is missing (exactly once, from the checkpoint)")
    func viewCatchUp() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // Write events without the projection, then open with it: it must catch up from position 1.
        let request = try WorkflowFixtures.squareRequest(payment: "p2", state: "st-2")
        let plain = try EventStore(path: dir.path)
        _ = try await plain.append(
            [try EventCodec.encode(.requested(Requested(
                launchURL: request.rawURL, provider: .square, amount: request.amount, reference: "st-2",
                apiVersion: "1.3", appVersion: nil, builtByPaylog: false)), id: UUID(), observedAt: nil, actor: "t")],
            to: "p2")
        plain.close()
        let store = try PaymentWorkflow.openStore(at: dir.path)
        #expect(try PaymentsProjection.payment("p2", in: store)?.version == 1)
        #expect(try PaymentsProjection.route("ref:st-2", in: store) == "p2")
        store.close()
    }

    @Test("a newer payload schema is a clear error, never a silent skip")
    func newerSchema() throws {
        #expect(throws: EventCodecError.newerSchema(type: "Failed", version: 9, supported: 1, position: 4)) {
            _ = try EventCodec.decode(type: "Failed", schemaVersion: 9, payload: Data(), position: 4)
        }
        #expect(throws: EventCodecError.unknownType("Refunded", position: 5)) {
            _ = try EventCodec.decode(type: "Refunded", schemaVersion: 1, payload: Data(), position: 5)
        }
    }
}
