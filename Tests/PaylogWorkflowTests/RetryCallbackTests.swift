import Foundation
import PaylogDomain
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

/// A callback of an earlier attempt that arrives after a retry with another provider is read as that attempt's
/// provider's, found by the reference it echoes, not as the retry's.
@Suite("Callbacks of an attempt a retry with another provider replaced")
struct RetryCallbackTests {
    static let iZettle = "izettle://x-callback-url/payment/1.0?x-source=shop&x-success=myshop%3A%2F%2Fcb&x-failure=myshop%3A%2F%2Fcb&api-key=K&price=5&currency=EUR&title=T&reference=izref1"
    static let sumUp = "sumupmerchant://pay/1.0?amount=5.00&currency=EUR&affiliate-key=AK&title=T&foreign-tx-id=suref1&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail"
    static var square: String {
        let json = #"{"amount_money":{"amount":500,"currency_code":"EUR"},"callback_url":"myshop://cb","client_id":"c","version":"1.3","state":"sqref1","options":{"supported_tender_types":["CREDIT_CARD"]}}"#
        return "square-commerce-v1://payment/create?data=" + json.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }
    static let lateIZettle = "myshop://cb?paylog_payment=v1&paylog_outcome=failure&reference=izref1&errorCode=CancelledByUser"

    /// iZettle attempt, our timeout, a retry with `retry` (its launch URL and app version), then the iZettle
    /// attempt's failure callback; `named`: whether the callback line names the payment.
    static func lines(retry: String, appVersion: String?, named: Bool) -> [String] {
        let version = appVersion.map { #","app_version":"\#($0)""# } ?? ""
        return [
            #"{"kind":"request","payment":"v1","at":"2026-11-21T10:00:00Z","url":"\#(iZettle)"}"#,
            #"{"kind":"fail","payment":"v1","at":"2026-11-21T10:02:00Z","reason":"timeout"}"#,
            #"{"kind":"request","payment":"v1","at":"2026-11-21T10:03:00Z","url":"\#(retry)"\#(version)}"#,
            #"{"kind":"callback",\#(named ? #""payment":"v1","# : "")"at":"2026-11-21T10:04:00Z","url":"\#(lateIZettle)"}"#,
        ]
    }

    @Test("after a retry with SumUp or Square, the earlier iZettle attempt's callback is iZettle's and fails nothing",
          arguments: [(sumUp, "1.88.0", false), (sumUp, "1.88.0", true), (square, nil, false), (square, nil, true)] as [(String, String?, Bool)])
    func earlierAttempt(retry: String, appVersion: String?, named: Bool) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let report = await workflow.ingest(lines: Self.lines(retry: retry, appVersion: appVersion, named: named))
        #expect(report.rejected == 0, "\(report.errors)")
        let events = try workflow.store.readStream("v1")
        #expect(events.map(\.type) == ["Requested", "Failed", "Requested", "CallbackReceived"], "the retry is not failed")
        guard case .callbackReceived(let callback)? = try events.last.map(EventCodec.decode) else {
            Issue.record("no callback recorded")
            return
        }
        #expect(callback.outcome.provider == .izettle && callback.answersEarlierAttempt)
        #expect(callback.outcome.errorCode == "CancelledByUser")
        #expect(try PaymentsProjection.payment("v1", in: workflow.store)?.status == .requested)
    }

    @Test("a file whose iZettle callback came before a retry with Square reads the same when ingested again: no rejection, nothing appended")
    func ingestedTwice() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let lines = [
            #"{"kind":"request","payment":"v1","at":"2026-11-21T10:00:00Z","url":"\#(Self.iZettle)"}"#,
            #"{"kind":"callback","at":"2026-11-21T10:01:00Z","url":"\#(Self.lateIZettle)"}"#,
            #"{"kind":"request","payment":"v1","at":"2026-11-21T10:03:00Z","url":"\#(Self.square)"}"#,
        ]
        let first = await workflow.ingest(lines: lines)
        #expect(first.rejected == 0, "\(first.errors)")
        let again = await workflow.ingest(lines: lines)
        #expect(again.rejected == first.rejected, "\(again.errors)")
        #expect(again.eventsAppended == 0)
    }

    @Test("a callback the latest provider cannot read says the payment was also requested from another provider")
    func unreadableNamesTheOtherAttempt() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        var lines = Self.lines(retry: Self.square, appVersion: nil, named: false)
        // No reference echoed: nothing says which attempt it answers.
        lines[3] = lines[3].replacingOccurrences(of: "&reference=izref1", with: "")
        let report = await workflow.ingest(lines: lines)
        #expect(report.rejected == 1)
        let message = report.errors.first?.message ?? ""
        #expect(message.contains("also requested from izettle") && message.contains("provider"), "\(message)")
    }
}
