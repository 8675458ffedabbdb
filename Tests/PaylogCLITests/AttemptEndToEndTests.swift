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

    static func squareRequest(_ payment: String, state: String, at time: String) -> String {
        let url = "square-commerce-v1://payment/create?data=" + IngestEndToEndTests.squareData(
            #"{"amount_money":{"amount":1000,"currency_code":"USD"},"callback_url":"myshop://cb","client_id":"cid","version":"1.3","state":"\#(state)","options":{"supported_tender_types":["CREDIT_CARD"]}}"#)
        return #"{"kind":"request","payment":"\#(payment)","at":"\#(time)","url":"\#(url)"}"#
    }

    static func squareCallback(_ json: String, at time: String) -> String {
        #"{"kind":"callback","at":"\#(time)","url":"myshop://cb?data=\#(IngestEndToEndTests.squareData(json))"}"#
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

    @Test("a failed attempt's success during the retry is late, and neither the retry's decline nor a request after a success leaves a decline on the completed payment")
    func declinesAroundASuccess() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        let ingest = try Self.ingest([
            // t1: attempt tA timed out, tB was requested, tA's success arrived, then tB was declined.
            Self.request("t1", "tA", at: "2026-11-21T09:00:00Z"),
            Self.fail("t1", at: "2026-11-21T09:02:00Z"),
            Self.request("t1", "tB", at: "2026-11-21T09:03:00Z"),
            Self.callback("ok?smp-status=success&smp-tx-code=TXA&foreign-tx-id=tA", at: "2026-11-21T09:03:10Z"),
            Self.callback("fail?smp-status=failed&foreign-tx-id=tB", at: "2026-11-21T09:03:40Z"),
            // u1: uA succeeded, then a request uB was made and declined.
            Self.request("u1", "uA", at: "2026-11-21T09:00:00Z"),
            Self.callback("ok?smp-status=success&smp-tx-code=TA&foreign-tx-id=uA", at: "2026-11-21T09:00:30Z"),
            Self.request("u1", "uB", at: "2026-11-21T09:01:00Z"),
            Self.callback("fail?smp-status=failed&smp-failure-cause=declined&foreign-tx-id=uB", at: "2026-11-21T09:01:30Z"),
            // q1 (Square): state s1 timed out, the retry s2 succeeded, then s1's payment_canceled arrived.
            Self.squareRequest("q1", state: "s1", at: "2026-11-21T09:00:00Z"),
            Self.fail("q1", at: "2026-11-21T09:05:00Z"),
            Self.squareRequest("q1", state: "s2", at: "2026-11-21T09:06:00Z"),
            Self.squareCallback(#"{"status":"ok","transaction_id":"TXB","client_transaction_id":"CB","state":"s2"}"#, at: "2026-11-21T09:06:30Z"),
            Self.squareCallback(#"{"status":"error","error_code":"payment_canceled","state":"s1"}"#, at: "2026-11-21T09:07:00Z"),
        ], store: store)
        #expect(ingest.status == 0, "\(ingest.stdout)")
        let t1 = try Self.status("t1", store: store)
        #expect(t1["status"] as? String == "completed" && t1["transaction_id"] as? String == "TXA")
        #expect(t1["flags"] as? [String] == ["late_callback"] && t1["error_code"] is NSNull)
        let u1 = try Self.status("u1", store: store)
        #expect(u1["status"] as? String == "completed" && u1["error_code"] is NSNull)
        #expect(u1["flags"] as? [String] == ["request_after_success"])
        let audit = try PaylogProcess.run(["audit", "u1"] + store).stdout
        #expect(audit.contains("REQUEST AFTER SUCCESS") && !audit.contains("CONTRADICTS"), "\(audit)")
        let q1 = try Self.status("q1", store: store)
        #expect(q1["status"] as? String == "completed" && q1["transaction_id"] as? String == "TXB")
        #expect(q1["error_code"] is NSNull, "the replaced attempt's cancel fails nothing and describes no charge")
    }
}
