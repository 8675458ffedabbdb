import Foundation
import PaylogDomain
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

/// A payment reconciled while it stood failed: the provider took the money after all, and when the report line
/// was observed before the failure (an expiry run before the report arrived), the failure was premature.
@Suite("Payment audit: reconciled after a failure")
struct PaymentAuditReconciledAfterFailureTests {
    static func percent(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
    static let request = #"{"kind":"request","payment":"s1","at":"2026-11-21T09:00:00Z","url":"square-commerce-v1://payment/create?data=\#(percent(#"{"version":"1.3","client_id":"C","amount_money":{"amount":1000,"currency_code":"USD"},"callback_url":"myapp://cb","state":"ST-1"}"#))"}"#
    static let offline = #"{"kind":"callback","at":"2026-11-21T09:00:40Z","url":"myapp://cb?data=\#(percent(#"{"status":"ok","client_transaction_id":"CTX-S1","state":"ST-1"}"#))"}"#
    static func line(at time: String) -> String {
        #"{"kind":"reconcile","at":"\#(time)","provider":"square","transaction_id":"TX-S1","client_transaction_id":"CTX-S1","amount_minor":1000,"currency":"USD"}"#
    }

    static func notes(expiringAt now: String, line time: String) async throws -> [[String]] {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        #expect(await workflow.ingest(lines: [request, offline]).rejected == 0)
        #expect(try await workflow.expireOffline(now: try #require(Timestamp(rfc3339: now))) == ["s1"])
        let report = await workflow.ingest(lines: [line(at: time)])
        #expect(report.eventsAppended == 1, "\(report.errors)")
        return try PaymentAudit.entries(of: "s1", in: workflow.store).map(\.notes)
    }

    @Test("an expiry run before the report arrived: the line observed inside the window says the expiry was premature")
    func prematureExpiry() async throws {
        let notes = try await Self.notes(expiringAt: "2026-11-22T09:00:45Z", line: "2026-11-22T09:00:00Z")
        let expiry = try #require(notes.joined().first { $0.hasPrefix("failed by expiry:") })
        #expect(expiry.contains("expired at 2026-11-22T09:00:40") && !expiry.contains("µs"), "\(expiry)")
        let reconciled = try #require(notes.last?.first { $0.hasPrefix("RECONCILED AFTER THE PAYMENT HAD FAILED (by expiry)") })
        #expect(reconciled.contains("observed at 2026-11-22T09:00:00.000000Z, before the failure") && reconciled.hasSuffix("premature"), "\(reconciled)")
    }

    @Test("a Square report line whose transaction id no success callback reported is noted; the callback's own is not")
    func strangeTransaction() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let online = #"{"kind":"callback","at":"2026-11-21T09:00:40Z","url":"myapp://cb?data=\#(Self.percent(#"{"status":"ok","transaction_id":"TX-S1","client_transaction_id":"CTX-S1","state":"ST-1"}"#))"}"#
        #expect(await workflow.ingest(lines: [Self.request, online]).rejected == 0)
        let other = Self.line(at: "2026-11-22T09:00:00Z").replacingOccurrences(of: #""transaction_id":"TX-S1""#, with: #""transaction_id":"TX-OTHER""#)
        let report = await workflow.ingest(lines: [Self.line(at: "2026-11-22T09:00:00Z"), other])
        #expect(report.eventsAppended == 2, "\(report.errors)")
        let notes = try PaymentAudit.entries(of: "s1", in: workflow.store).suffix(2).map { $0.notes.filter { $0.hasPrefix("the report's transaction id") } }
        #expect(notes.map(\.count) == [0, 1] && notes.last?.first?.contains("TX-OTHER is not one the success callbacks reported (TX-S1)") == true, "\(notes)")
    }

    @Test("a SumUp report line after a Square retry's success is not held to the Square callback's transaction id")
    func otherProvidersLineAfterSquareCallback() async throws {
        func percent(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
        let square = #"{"version":"1.3","client_id":"C","amount_money":{"amount":1250,"currency_code":"EUR"},"callback_url":"myshop://cb","state":"st-y1b"}"#
        let online = #"{"status":"ok","transaction_id":"TX-SQY","client_transaction_id":"CTX-Y1","state":"st-y1b"}"#
        let lines = [
            #"{"kind":"request","payment":"y1","at":"2026-11-21T09:00:00Z","app_version":"1.88.0","url":"sumupmerchant://pay/1.0?amount=12.50&currency=EUR&affiliate-key=k&foreign-tx-id=ref-y1a&callbacksuccess=myshop%3A%2F%2Fok"}"#,
            #"{"kind":"fail","payment":"y1","at":"2026-11-21T09:02:00Z","reason":"timeout"}"#,
            #"{"kind":"request","payment":"y1","at":"2026-11-21T09:03:00Z","url":"square-commerce-v1://payment/create?data=\#(percent(square))"}"#,
            #"{"kind":"callback","at":"2026-11-21T09:04:00Z","url":"myshop://cb?data=\#(percent(online))"}"#,
            #"{"kind":"callback","at":"2026-11-21T09:05:00Z","url":"myshop://ok?smp-status=success&smp-tx-code=TX-SUY&foreign-tx-id=ref-y1a"}"#,
            #"{"kind":"reconcile","at":"2026-11-22T08:00:00Z","provider":"sumup","transaction_id":"TX-SUY","foreign_tx_id":"ref-y1a","amount_minor":1250,"currency":"EUR"}"#,
            #"{"kind":"reconcile","at":"2026-11-22T08:00:01Z","provider":"square","transaction_id":"TX-SQ-OTHER","client_transaction_id":"CTX-Y1","amount_minor":1250,"currency":"EUR"}"#,
        ]
        let notes = try await RecordedDay.with(lines) { workflow in
            try PaymentAudit.entries(of: "y1", in: workflow.store).suffix(2).map { $0.notes.filter { $0.hasPrefix("the report's transaction id") } }
        }
        #expect(notes.first == [], "SumUp's report names its own transaction id, not Square's: \(notes)")
        #expect(notes.last?.first?.contains("TX-SQ-OTHER is not one the success callbacks reported (TX-SQY)") == true, "\(notes)")
    }

    @Test("a report line observed after the expiry: the money was taken after all, and no word of premature")
    func lateReport() async throws {
        let notes = try await Self.notes(expiringAt: "2026-11-22T09:00:45Z", line: "2026-11-23T08:00:00Z")
        let reconciled = try #require(notes.last?.first { $0.hasPrefix("RECONCILED AFTER THE PAYMENT HAD FAILED") })
        #expect(!reconciled.contains("premature"), "\(reconciled)")
        #expect(notes.dropLast().joined().allSatisfy { !$0.hasPrefix("RECONCILED AFTER") })
    }
}
