import Foundation
import PaylogDomain
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

/// The audit's notes on callbacks recorded after their payment had failed: "late" is recording order, and when the
/// callback was observed before the failure the note must say so — the failure may have been premature.
@Suite("Payment audit")
struct PaymentAuditTests {
    static let request = #"{"kind":"request","payment":"p1","at":"2026-11-21T09:00:00Z","app_version":"1.88.0","url":"sumupmerchant://pay/1.0?amount=10.00&currency=EUR&affiliate-key=k&foreign-tx-id=ref-p1&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail"}"#
    static let fail = #"{"kind":"fail","payment":"p1","at":"2026-11-21T09:05:00Z","reason":"no callback in 5 min"}"#

    static func callback(at time: String) -> String {
        #"{"kind":"callback","at":"\#(time)","url":"myshop://ok?smp-status=success&smp-tx-code=TX1&foreign-tx-id=ref-p1"}"#
    }

    static func lateNotes(_ lines: [String]) async throws -> [String] {
        try await RecordedDay.with(lines) { workflow in
            try PaymentAudit.entries(of: "p1", in: workflow.store).flatMap(\.notes).filter { $0.hasPrefix("LATE") }
        }
    }

    @Test("a callback observed after the failure is late; one observed before it, but recorded after, says so")
    func lateNotes() async throws {
        let after = try await Self.lateNotes([Self.request, Self.fail, Self.callback(at: "2026-11-21T09:06:00Z")])
        #expect(after == ["LATE: arrived after the payment had failed"])
        let before = try await Self.lateNotes([Self.request, Self.fail, Self.callback(at: "2026-11-21T09:00:31Z")])
        #expect(before.count == 1)
        #expect(before.first?.contains("observed at 2026-11-21T09:00:31.000000Z, before the failure") == true)
        #expect(before.first?.contains("may have been premature") == true)
    }

    @Test("after a further failure, a late callback is compared with the first failure's time, which stands")
    func lateAfterRepeatedFailure() async throws {
        let again = #"{"kind":"fail","payment":"p1","at":"2026-11-21T09:10:00Z","reason":"till operator cancelled"}"#
        // Observed between the two failures: after the first, so late, and not "before the failure".
        let notes = try await Self.lateNotes([Self.request, Self.fail, again, Self.callback(at: "2026-11-21T09:06:00Z")])
        #expect(notes == ["LATE: arrived after the payment had failed"], "\(notes)")
        let payment = try await RecordedDay.with([Self.request, Self.fail, again]) { workflow in
            try #require(try PaymentsProjection.payment("p1", in: workflow.store))
        }
        #expect(payment.failureReason == "no callback in 5 min" && payment.version == 3)
    }

    @Test("an app switch's note is its evidence in the audit, as in the replay; a switch without one has none")
    func appSwitchNote() async throws {
        let noted = #"{"kind":"app_switch","payment":"p1","at":"2026-11-21T09:00:02Z","note":"till 4 handed over to SumUp"}"#
        let bare = #"{"kind":"app_switch","payment":"p1","at":"2026-11-21T09:00:03Z"}"#
        let switches = try await RecordedDay.with([Self.request, noted, bare]) { workflow in
            try PaymentAudit.entries(of: "p1", in: workflow.store).filter { $0.event.type == "AppSwitched" }
        }
        #expect(switches.map(\.evidence) == ["till 4 handed over to SumUp", nil])
    }
}
