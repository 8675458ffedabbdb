import Foundation
import PaylogStore
import Testing

@testable import PaylogWorkflow

/// Event ids are derived from the observation, so re-ingesting a file appends nothing: they must never change
/// from one build to the next. These values were computed by the build that first recorded them.
@Suite("Event identity")
struct EventIdentityTests {
    @Test("an observation's digest and its events' ids are the ones earlier builds derived")
    func pinned() {
        let identity = PaymentWorkflow.identity(
            "pay-0042", command: .fail(reason: "timeout"), observedAt: Timestamp(microseconds: 1_795_000_000_123_456),
            evidence: "timeout — gave up")
        #expect(identity.map { String(format: "%02x", $0) }.joined() == "2bdbe69aac73e3619fc0546cbd121231e7731a9e112083a2c701176221fd9b2a")
        #expect(PaymentWorkflow.eventID(identity, index: 0).uuidString == "895F6BED-AC8A-8817-A185-B70054718B32")
        #expect(PaymentWorkflow.eventID(identity, index: 1).uuidString == "A01F6DEF-1B2D-88D3-AA07-F9419966D151")
        let unobserved = PaymentWorkflow.identity("pay-0042", command: .switchApp(note: ""), observedAt: nil, evidence: "")
        #expect(PaymentWorkflow.eventID(unobserved, index: 0).uuidString == "B83CAFB7-E683-8346-9C78-D9DD01153ED4")
    }
}
