import Foundation
import Testing
import TestSupport

/// How a payment's attempts fold, through `paylog ingest`, `status`, `audit` and `analytics` as a support engineer
/// runs them on a disputed payment.
@Suite("paylog executable: attempts, end to end")
struct AttemptEndToEndTests {
    static func request(_ payment: String, _ reference: String, at time: String, amount: String = "10.00") -> String {
        #"{"kind":"request","payment":"\#(payment)","at":"\#(time)","app_version":"1.88.0","url":"sumupmerchant://pay/1.0?amount=\#(amount)&currency=EUR&affiliate-key=AK&foreign-tx-id=\#(reference)&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail"}"#
    }

    static func callback(_ query: String, at time: String) -> String {
        #"{"kind":"callback","at":"\#(time)","url":"myshop://\#(query)"}"#
    }

    static func fail(_ payment: String, at time: String, reason: String = "no callback within 120 s") -> String {
        #"{"kind":"fail","payment":"\#(payment)","at":"\#(time)","reason":"\#(reason)"}"#
    }

    /// Ingests `lines` into `store`; returns the exit status and the report.
    static func ingest(_ lines: [String], store: [String]) throws -> PaylogProcess.Result {
        try PaylogProcess.run(["ingest", "-"] + store, stdin: lines.joined(separator: "\n") + "\n")
    }

    static func status(_ payment: String, store: [String]) throws -> [String: Any] {
        try PaylogProcess.jsonObject(try PaylogProcess.run(["status", payment, "--json"] + store).stdout)
    }

    @Test("a till's timeout observed before the success reads the same in either recording order; one observed after is still refused")
    func timeoutBeforeSuccess() throws {
        let request = Self.request("o1", "ro1", at: "2026-11-21T09:00:00Z", amount: "8.00")
        let fail = Self.fail("o1", at: "2026-11-21T09:02:00Z", reason: "till timeout")
        let success = Self.callback("ok?smp-status=success&smp-tx-code=OTX&foreign-tx-id=ro1", at: "2026-11-21T09:02:40Z")
        var statuses: [[String: Any]] = []
        for lines in [[request, fail, success], [request, success, fail]] {
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let store = ["--store", dir.path]
            let ingest = try Self.ingest(lines, store: store)
            #expect(ingest.status == 0, "\(ingest.stdout)\(ingest.stderr)")
            statuses.append(try Self.status("o1", store: store))
            if lines.last == fail {
                let audit = try PaylogProcess.run(["audit", "o1"] + store).stdout
                #expect(audit.contains("RECORDED AFTER THE PAYMENT HAD SUCCEEDED, but observed at 2026-11-21T09:02:00.000000Z"), "\(audit)")
                let later = try Self.ingest([Self.fail("o1", at: "2026-11-21T09:03:00Z", reason: "later")], store: store)
                #expect(later.status == 2)
                #expect(later.stdout.contains("Payment o1 is completed; a succeeded payment cannot be failed. Refund it with the provider instead."),
                        "\(later.stdout)")
            }
        }
        for status in statuses {
            #expect(status["status"] as? String == "completed")
            #expect(status["flags"] as? [String] == ["late_callback"])
            #expect(status["transaction_id"] as? String == "OTX")
        }
    }

    @Test("two attempts charged, proven by the report only: multiple_charges, the audit names another charge, analytics counts the payment once")
    func doubleChargeByReport() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        let ingest = try Self.ingest([
            Self.request("r1", "refA", at: "2026-11-21T09:00:00Z"),
            Self.fail("r1", at: "2026-11-21T09:02:00Z"),
            Self.request("r1", "refB", at: "2026-11-21T09:03:00Z", amount: "12.00"),
            Self.callback("ok?smp-status=success&smp-tx-code=TXB&foreign-tx-id=refB", at: "2026-11-21T09:03:30Z"),
            #"{"kind":"reconcile","at":"2026-11-22T08:00:00Z","provider":"sumup","transaction_id":"TXA","foreign_tx_id":"refA","amount_minor":1000,"currency":"EUR"}"#,
            #"{"kind":"reconcile","at":"2026-11-22T08:00:00Z","provider":"sumup","transaction_id":"TXB","foreign_tx_id":"refB","amount_minor":1200,"currency":"EUR"}"#,
        ], store: store)
        #expect(ingest.status == 0, "\(ingest.stdout)")
        let status = try Self.status("r1", store: store)
        #expect(status["status"] as? String == "reconciled" && status["transaction_id"] as? String == "TXB")
        #expect(status["flags"] as? [String] == ["multiple_charges"])
        #expect(try PaylogProcess.run(["status", "r1"] + store).stdout.contains("CHARGES"))
        let audit = try PaylogProcess.run(["audit", "r1"] + store).stdout
        #expect(audit.contains("ANOTHER CHARGE REPORTED (TXB, 12.00 EUR; earlier TXA, 10.00 EUR)"), "\(audit)")
        #expect(!audit.contains("AMOUNT DIFFERS") && !audit.contains("AMOUNT MISMATCH"), "\(audit)")
        let csv = try PaylogProcess.run(["analytics", "--format", "csv"] + store).stdout.split(separator: "\n")
        let header = csv.first?.split(separator: ",", omittingEmptySubsequences: false) ?? []
        let row = csv.last?.split(separator: ",", omittingEmptySubsequences: false) ?? []
        func column(_ name: String) -> Substring? { header.firstIndex(of: Substring(name)).map { row[$0] } }
        #expect(column("reconciled") == "1" && column("reconciled_minor") == "1200", "the payment once, at its latest request's amount")
    }
}
