import Foundation
import TestSupport
import Testing

/// Square callbacks and requests whose `data` JSON holds `null`s, recorded through `paylog ingest` into a real
/// store, and `paylog request` refusals a command-line user can act on.
@Suite("Square JSON shapes and request refusals, end to end")
struct SquareJSONShapeEndToEndTests {
    static func squareRequest(state: String) -> String {
        let json = #"{"version":"1.3","client_id":"c","amount_money":{"amount":500,"currency_code":"USD"},"#
            + #""callback_url":"myshop://cb","options":{"supported_tender_types":["CREDIT_CARD"]},"state":""# + state + #""}"#
        return "square-commerce-v1://payment/create?data=" + json.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    static func callback(_ json: String) -> String {
        "myshop://cb?data=" + json.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    static func line(_ object: [String: String]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test("a null transaction_id records an offline payment that expires, routed by no tx:null tag; findings carry their basis")
    func nullTransactionIDIsOffline() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        let lines = try [
            Self.line(["kind": "request", "payment": "pa", "at": "2026-11-21T09:00:00Z", "url": Self.squareRequest(state: "s-a")]),
            Self.line(["kind": "callback", "at": "2026-11-21T09:01:00Z", "url": Self.callback(
                #"{"status":"ok","client_transaction_id":"CTX-A","transaction_id":null,"state":"s-a"}"#)]),
            Self.line(["kind": "request", "payment": "pb", "at": "2026-11-21T09:00:00Z", "url": Self.squareRequest(state: "s-b")]),
            Self.line(["kind": "callback", "at": "2026-11-21T09:01:00Z", "url": Self.callback(
                #"{"status":"ok","client_transaction_id":"CTX-B","transaction_id":"","state":"s-b"}"#)]),
        ].joined(separator: "\n") + "\n"
        let ingest = try PaylogProcess.run(["ingest", "-"] + store, stdin: lines)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        for payment in ["pa", "pb"] {
            let status = try PaylogProcess.jsonObject(try PaylogProcess.run(["status", payment, "--json"] + store).stdout)
            #expect(status["status"] as? String == "offline", "\(payment): \(status)")
            #expect(status["transaction_id"] is NSNull, "\(payment): \(status)")
        }
        let log = try PaylogProcess.run(["log", "--json"] + store)
        #expect(!log.stdout.contains("tx:null") && !log.stdout.contains("\"tx:\""), "\(log.stdout)")
        let expired = try PaylogProcess.run(["expire", "--now", "2026-11-23T09:00:00Z", "--json"] + store)
        #expect(expired.status == 0)
        #expect(expired.stdout.contains("pa") && expired.stdout.contains("pb"), "\(expired.stdout)")

        let audit = try PaylogProcess.run(["audit", "pa"] + store)
        #expect(audit.stdout.contains("WARNING [I] [square.url.data-null-value] Square data sends transaction_id as JSON null"), "\(audit.stdout)")
        #expect(audit.stdout.contains("INFO [C] [square.callback.offline]"), "\(audit.stdout)")
        let json = try PaylogProcess.jsonObject(try PaylogProcess.run(["audit", "pa", "--json"] + store).stdout)
        let findings = (json["timeline"] as? [[String: Any]] ?? []).flatMap { $0["findings"] as? [[String: Any]] ?? [] }
        #expect(!findings.isEmpty)
        for finding in findings {
            #expect(["confirmed", "inferred"].contains(finding["basis"] as? String), "\(finding)")
        }
    }

    @Test("paylog request refusals name what a command-line user can change")
    func requestRefusals() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let request = ["request", "--store", dir.path, "--payment", "b3", "--provider", "square", "--amount", "5",
                       "--currency", "USD", "--callback", "myshop://cb", "--client-id", "c"]
        for (extra, says, never) in [
            (["--api-version", "1.4"], "use \"1.0\", \"1.1\", \"1.2\" or \"1.3\" (--api-version", "or nil for"),
            (["--title", "X"], "leave it out of the request (--title", "remove it from the LaunchSpec"),
            (["--app-version", "4.58"], "choose a lower API version (--api-version", "drop the field"),
        ] {
            let result = try PaylogProcess.run(request + extra)
            #expect(result.status == 1, "\(extra)")
            #expect(result.stderr.contains(says), "\(extra): \(result.stderr)")
            #expect(!result.stderr.contains(never), "\(extra): \(result.stderr)")
        }
    }
}
