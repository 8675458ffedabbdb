import Foundation
import PaylogDomain
import PaylogStore
import TestSupport
import Testing

@testable import PaylogWorkflow

/// The identity a batched ingest works out while parsing must be the one the session would derive, or
/// re-ingesting a file would append its lines again.
@Suite("Observation identity worked out while parsing")
struct ObservationIdentityTests {
    @Test("lines naming their payment, or carrying a paylog_payment marker, get the digest and first event id the session derives for the payment it routes them to; the others get none")
    func matchesTheSession() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try PaymentWorkflow.openStore(at: dir.path)
        defer { store.close() }
        let workflow = PaymentWorkflow(store: store, actor: "t")
        let lines = try DemoDay(payments: 60, seed: 5).plan().lines
        var used = 0
        var markedCallbacks = 0
        for line in lines {
            let observation = try Observation.parse(line)
            let prepared = PreparedObservation(number: 1, observation: observation)
            // Routed and read as the session does, against the lines recorded before it.
            let (command, payment, at, evidence) = try workflow.resolve(observation, reading: StoreReading(store: store))
            let digest = PaymentWorkflow.identity(payment, command: command, observedAt: at, evidence: evidence)
            switch observation {
            case .request, .appSwitch, .fail, .callback(_?, _, _, _):
                let identity = try #require(prepared.identity, "\(line)")
                #expect(identity.paymentID == payment)
            case .callback(nil, _, let url, nil) where PaymentWorkflow.queryItem("paylog_payment", in: url) != nil:
                #expect(prepared.identity?.paymentID == payment, "\(line)")
                markedCallbacks += 1
            case .callback, .reconcile:
                #expect(prepared.identity == nil, "\(line)")
            }
            if let identity = prepared.identity, identity.paymentID == payment {
                #expect(identity.digest == digest, "\(line)")
                #expect(identity.firstEventID == PaymentWorkflow.eventID(digest, index: 0))
                used += 1
            }
            _ = try await workflow.record(observation)
        }
        // Most lines name their payment; reconciliation lines never do.
        #expect(used > lines.count / 2 && used < lines.count)
        #expect(markedCallbacks > 0)
    }

    @Test("a callback routed by reference, or one whose URL cannot be read, gets no identity ahead")
    func storeOnlyRoutes() throws {
        let byReference = Observation.callback(
            payment: nil, at: Timestamp(microseconds: 1_795_000_000_000_000),
            url: "myshop://cb?data=%7B%22status%22%3A%22ok%22%2C%22transaction_id%22%3A%22TX1%22%2C%22client_transaction_id%22%3A%22CTX1%22%7D",
            provider: nil)
        #expect(PreparedObservation(number: 1, observation: byReference).identity == nil)
        let unreadable = Observation.callback(payment: nil, at: Timestamp(microseconds: 1), url: "%zz not a url", provider: nil)
        #expect(PreparedObservation(number: 1, observation: unreadable).identity == nil)
        // A callback naming its provider but not its payment is read in the session: no identity ahead either.
        let named = Observation.callback(payment: nil, at: Timestamp(microseconds: 1), url: "myshop://cb?paylog_payment=pay-1", provider: .square)
        #expect(PreparedObservation(number: 1, observation: named).identity == nil)
    }
}
