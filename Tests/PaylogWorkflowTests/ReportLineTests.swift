import Foundation
import PaylogDomain
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

/// A provider's report speaks only for its own provider's payments, and holds report lines only.
@Suite("Report lines")
struct ReportLineTests {
    @Test("after a retry with another provider, the first provider's late callback and report line are recorded")
    func retriedWithAnotherProvider() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        func percent(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
        func square(_ id: String) -> String {
            let data = #"{"version":"1.3","client_id":"C","amount_money":{"amount":300,"currency_code":"USD"},"callback_url":"myapp://cb","state":"ST-\#(id)"}"#
            return #"{"kind":"request","payment":"\#(id)","at":"2026-11-21T09:00:00Z","url":"square-commerce-v1://payment/create?data=\#(percent(data))"}"#
        }
        func sumupRetry(_ id: String) -> [String] {
            [
                #"{"kind":"fail","payment":"\#(id)","at":"2026-11-21T09:05:00Z","reason":"no answer"}"#,
                #"{"kind":"request","payment":"\#(id)","at":"2026-11-21T09:06:00Z","app_version":"1.88.0","url":"sumupmerchant://pay/1.0?amount=3.00&currency=USD&affiliate-key=k&foreign-tx-id=ref-\#(id)&callbacksuccess=myshop%3A%2F%2Fok"}"#,
                #"{"kind":"callback","at":"2026-11-21T09:07:00Z","url":"myshop://ok?smp-status=success&smp-tx-code=SU-\#(id)&foreign-tx-id=ref-\#(id)"}"#,
            ]
        }
        let offline = #"{"status":"ok","client_transaction_id":"CTX-Y1","state":"ST-y1"}"#
        let online = #"{"status":"ok","transaction_id":"SQ-X1","client_transaction_id":"CTX-X1","state":"ST-x1"}"#
        let day = await workflow.ingest(lines: [
            square("y1"), #"{"kind":"callback","at":"2026-11-21T09:01:00Z","url":"myapp://cb?data=\#(percent(offline))"}"#,
        ] + sumupRetry("y1") + [square("x1")] + sumupRetry("x1") + [
            // Attempt 1's Square success arrives after the SumUp retry succeeded: a second charge.
            #"{"kind":"callback","at":"2026-11-21T09:08:00Z","url":"myapp://cb?data=\#(percent(online))"}"#,
        ])
        #expect(day.rejected == 0, "\(day.errors)")
        let x1 = try #require(try PaymentsProjection.payment("x1", in: workflow.store))
        #expect(x1.callbackFingerprints.count == 2 && x1.provider == .sumup && x1.requestedProviders == ProviderSet([.square, .sumup]))
        #expect(x1.firstCharge == "SU-x1" && x1.hadMultipleCharges)
        let notes = try PaymentAudit.entries(of: "x1", in: workflow.store).flatMap(\.notes)
        #expect(notes.filter { $0.hasPrefix("ANOTHER SUCCESSFUL CHARGE (CTX-X1; earlier SU-x1)") }.count == 1, "\(notes)")
        let y1 = try #require(try PaymentsProjection.payment("y1", in: workflow.store))
        #expect(y1.firstCharge == "CTX-Y1" && y1.hadMultipleCharges)
        let report = await workflow.ingest(lines: [
            #"{"at":"2026-11-22T12:00:00Z","provider":"square","transaction_id":"SQ-Y1","client_transaction_id":"CTX-Y1","amount_minor":300,"currency":"USD"}"#,
        ], defaultKind: "reconcile")
        #expect(report.accepted == 1 && report.eventsAppended == 1, "\(report.errors)")
        #expect(try PaymentsProjection.payment("y1", in: workflow.store)?.status == .reconciled)
    }

    @Test("a SumUp callback named for a Square payment is read as SumUp's and refused for its provider, not as a Square URL")
    func callbackOfAnotherProvider() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let data = #"{"version":"1.3","client_id":"C","amount_money":{"amount":300,"currency_code":"USD"},"callback_url":"myapp://cb","state":"ST-4"}"#
        let url = "square-commerce-v1://payment/create?data=" + data.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(await workflow.ingest(lines: [#"{"kind":"request","payment":"s4","at":"2026-11-21T09:00:00Z","url":"\#(url)"}"#]).rejected == 0)
        let report = await workflow.ingest(lines: [
            #"{"kind":"callback","payment":"s4","at":"2026-11-21T09:05:00Z","url":"myshop://cb?smp-status=success&smp-tx-code=TT"}"#,
        ])
        #expect(report.rejected == 1)
        let message = report.errors.first?.message ?? ""
        #expect(message.contains("square") && message.contains("sumup") && !message.contains("data"), "\(message)")
    }

    @Test("a report line matched by an earlier attempt's reference is judged against that attempt's amount")
    func amountOfTheMatchedAttempt() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        func attempt(_ id: String, _ reference: String, _ amount: String, at minute: Int) -> String {
            #"{"kind":"request","payment":"\#(id)","at":"2026-11-21T09:\#(10 + minute):00Z","app_version":"1.88.0","url":"sumupmerchant://pay/1.0?amount=\#(amount)&currency=EUR&affiliate-key=k&foreign-tx-id=\#(reference)&callbacksuccess=myshop%3A%2F%2Fok"}"#
        }
        func fail(_ id: String) -> String { #"{"kind":"fail","payment":"\#(id)","at":"2026-11-21T09:12:30Z","reason":"timeout"}"# }
        let day = await workflow.ingest(lines: [
            attempt("a-1", "ref-a1", "5.00", at: 0), fail("a-1"), attempt("a-1", "ref-a2", "6.00", at: 3),
            attempt("b-1", "ref-b1", "5.00", at: 0), fail("b-1"), attempt("b-1", "ref-b2", "6.00", at: 3),
        ])
        #expect(day.rejected == 0, "\(day.errors)")
        let report = await workflow.ingest(lines: [
            #"{"at":"2026-11-22T08:00:00Z","provider":"sumup","transaction_id":"TA","foreign_tx_id":"ref-a1","amount_minor":500,"currency":"EUR"}"#,
            #"{"at":"2026-11-22T08:00:00Z","provider":"sumup","transaction_id":"TB","foreign_tx_id":"ref-b1","amount_minor":600,"currency":"EUR"}"#,
        ], defaultKind: "reconcile")
        #expect(report.eventsAppended == 2, "\(report.errors)")
        #expect(try PaymentsProjection.payment("a-1", in: workflow.store)?.hadAmountMismatch == false, "5.00 asked by ref-a1, 5.00 reported")
        #expect(try PaymentsProjection.payment("b-1", in: workflow.store)?.hadAmountMismatch == true, "5.00 asked by ref-b1, 6.00 reported")
    }

    @Test("a report run again after its reference was reused by a new payment reconciles nothing new: the transaction's payment keeps it")
    func reusedReference() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        func request(_ id: String, at: String) -> String {
            #"{"kind":"request","payment":"\#(id)","at":"\#(at)","url":"izettle://x-callback-url/payment/1.0?x-source=shop&x-success=myshop%3A%2F%2Fiz-ok&x-failure=myshop%3A%2F%2Fiz-fail&api-key=K&price=20&currency=SEK&title=T&reference=order-42"}"#
        }
        let line = #"{"at":"2026-11-22T08:00:00Z","provider":"izettle","transaction_id":"IZ-42","reference":"order-42","amount_minor":2000,"currency":"SEK"}"#
        #expect(await workflow.ingest(lines: [request("iz-A", at: "2026-11-21T10:00:00Z")]).rejected == 0)
        let first = await workflow.ingest(lines: [line], defaultKind: "reconcile")
        #expect(first.eventsAppended == 1, "\(first.errors)")
        #expect(await workflow.ingest(lines: [request("iz-B", at: "2026-11-23T10:00:00Z")]).rejected == 0)
        let again = await workflow.ingest(lines: [line], defaultKind: "reconcile")
        #expect(again.accepted == 1 && again.eventsAppended == 0, "\(again.errors)")
        #expect(try PaymentsProjection.payment("iz-B", in: workflow.store)?.status == .requested)
        #expect(try PaymentsProjection.payment("iz-A", in: workflow.store)?.status == .reconciled)
    }

    @Test("a SumUp report line whose key names a Square payment does not reconcile it; another kind is refused")
    func ownProviderOnly() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        func percent(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
        let data = #"{"version":"1.3","client_id":"C","amount_money":{"amount":300,"currency_code":"USD"},"callback_url":"myapp://cb","state":"SQR"}"#
        let setup = await workflow.ingest(lines: [
            #"{"kind":"request","payment":"sq","at":"2026-11-21T09:00:00Z","url":"square-commerce-v1://payment/create?data=\#(percent(data))"}"#,
        ])
        #expect(setup.accepted == 1, "\(setup.errors)")
        let report = await workflow.ingest(lines: [
            #"{"at":"2026-11-22T12:00:00Z","provider":"sumup","transaction_id":"SU-X","foreign_tx_id":"SQR","amount_minor":300,"currency":"USD"}"#,
            #"{"kind":"fail","payment":"sq","at":"2026-11-22T10:00:01Z","reason":"via report"}"#,
        ], defaultKind: "reconcile")
        #expect(report.accepted == 0 && report.rejected == 2)
        #expect(report.errors.first?.message.contains("names square payment sq") == true, "\(report.errors)")
        #expect(report.errors.last?.message.contains("must be a reconcile observation") == true, "\(report.errors)")
        #expect(try PaymentsProjection.payment("sq", in: workflow.store)?.status == .requested)
        #expect(try workflow.store.lastPosition() == 1)
    }
}
