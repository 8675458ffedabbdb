import Foundation
import PaylogDomain
import PaylogStore
import Testing

@testable import PaylogWorkflow

/// The identity a batched ingest works out while parsing must be the one the session would derive, or
/// re-ingesting a file would append its lines again.
@Suite("Observation identity worked out while parsing")
struct ObservationIdentityTests {
    @Test("lines naming their payment (or carrying its paylog_payment marker) get the digest and first event id the session derives; the others get none")
    func matchesTheSession() throws {
        let lines = try DemoDay(payments: 60, seed: 5).plan().lines
        var named = 0
        var unnamed = 0
        for line in lines {
            let observation = try Observation.parse(line)
            let prepared = PreparedObservation(number: 1, observation: observation)
            let expected: (payment: String, command: PaymentCommand, at: Timestamp, evidence: String)?
            switch observation {
            case .request(let payment, let at, let url, let appVersion):
                expected = (payment, .request(try PaymentWorkflow.parseLaunch(url, appVersion: appVersion), builtByPaylog: false), at, url)
            case .appSwitch(let payment, let at, let note):
                expected = (payment, .switchApp(note: note), at, note)
            case .fail(let payment, let at, let reason):
                expected = (payment, .fail(reason: reason), at, reason)
            case .callback(let payment, let at, let url, _):
                // The command's outcome does not enter the digest, only its kind: any outcome stands for it.
                let outcome = try PaymentWorkflow.detectCallback(url)
                    ?? CallbackOutcome(provider: .izettle, rawURL: url, status: .failure)
                if let payment {
                    expected = (payment, .receiveCallback(outcome), at, url)
                } else if try PaymentWorkflow.detectCallback(url) != nil, case .paymentID(let id)? = outcome.routingHint {
                    // Routed by the marker of a URL read as the provider it names; a URL naming no provider is
                    // read as its payment's provider, which only the store knows.
                    expected = (id.rawValue, .receiveCallback(outcome), at, url)
                } else {
                    expected = nil
                }
            case .reconcile:
                expected = nil
            }
            guard let expected else {
                #expect(prepared.identity == nil, "\(line)")
                unnamed += 1
                continue
            }
            let identity = try #require(prepared.identity, "\(line)")
            let digest = PaymentWorkflow.identity(expected.payment, command: expected.command, observedAt: expected.at, evidence: expected.evidence)
            #expect(identity.paymentID == expected.payment)
            #expect(identity.digest == digest, "\(line)")
            #expect(identity.firstEventID == PaymentWorkflow.eventID(digest, index: 0))
            named += 1
        }
        // The demo day has both kinds: most lines name their payment, reconciliation lines never do.
        #expect(named > lines.count / 2)
        #expect(unnamed > 0)
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
