import Foundation
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

/// A provider's report speaks only for its own provider's payments, and holds report lines only.
@Suite("Report lines")
struct ReportLineTests {
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
