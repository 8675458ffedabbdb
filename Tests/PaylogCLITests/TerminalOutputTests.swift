import Foundation
import TestSupport
import Testing

/// Docs/cli.md, *Output*: the text output escapes control and bidirectional characters in wire values, so that what an
/// auditor reads on a terminal is what the log holds; `replay --payment` shows the audit's notes beside each step.
@Suite("text output is safe on a terminal and time travel reads as the audit")
struct TerminalOutputTests {
    /// A SumUp request whose `foreign-tx-id` and `title` hold ESC, CR, LF and U+202E, and its success callback.
    static let lines = [
        #"{"kind":"request","payment":"p1","at":"2026-11-21T09:00:00Z","app_version":"1.88.0","url":"sumupmerchant://pay/1.0?amount=12.50&currency=EUR&affiliate-key=AK&foreign-tx-id=ok%1B%5B2K%0D%1B%5B32mfine&title=a%0A%20%20%E2%86%92%20status%20completed%E2%80%AEb&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail"}"#,
        #"{"kind":"callback","at":"2026-11-21T09:01:00Z","url":"myshop://ok?smp-status=success&smp-tx-code=T%1B1&foreign-tx-id=ok%1B%5B2K%0D%1B%5B32mfine"}"#,
    ]

    /// Whether `text` holds a control character other than the line feeds between lines, or a bidi override.
    static func hasRawControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" }
    }

    @Test("audit, replay --payment, status, stream and log print ESC, CR, LF and U+202E of wire values escaped")
    func escaped() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path + "/store"]
        let ingest = try PaylogProcess.run(["ingest", "-"] + store, stdin: Self.lines.joined(separator: "\n") + "\n")
        #expect(ingest.status == 0, "\(ingest.stdout) \(ingest.stderr)")
        let commands = [["audit", "p1"], ["replay", "--payment", "p1"], ["status"], ["status", "p1"], ["stream", "p1"], ["log"]]
        for command in commands {
            let result = try PaylogProcess.run(command + store)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(!Self.hasRawControl(result.stdout), "\(command) printed a raw control character: \(result.stdout.debugDescription)")
        }
        let audit = try PaylogProcess.run(["audit", "p1"] + store).stdout
        #expect(audit.contains(#"foreign-tx-id=ok\u{1B}[2K\u{D}\u{1B}[32mfine"#), "\(audit)")
        #expect(audit.contains(#"title=a\u{A}  → status completed\u{202E}b"#), "\(audit)")
        // The forged line the title carries never starts a line of its own.
        #expect(!audit.split(separator: "\n").contains { $0.hasPrefix("  → status completed") && $0.contains("\\u") })
        let status = try PaylogProcess.run(["status", "p1"] + store).stdout
        #expect(status.contains(#"T\u{1B}1"#), "\(status)")
        // JSON output is left to JSON's own escaping: the value reads back byte for byte.
        let json = try PaylogProcess.jsonObject(try PaylogProcess.run(["status", "p1", "--json"] + store).stdout)
        #expect(json["transaction_id"] as? String == "T\u{1B}1")
    }

    @Test("replay --payment notes a report line's amount mismatch and gives an expiry's end as a time, as the audit does")
    func timeTravelNotes() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path + "/store"]
        // A Square offline payment of 5.00 USD (no transaction_id), expired, then reported at 7.00 USD.
        let day = [
            #"{"kind":"request","payment":"pb","at":"2026-11-21T09:00:00Z","url":"square-commerce-v1://payment/create?data=%7B%22version%22%3A%221.3%22%2C%22client_id%22%3A%22c%22%2C%22amount_money%22%3A%7B%22amount%22%3A500%2C%22currency_code%22%3A%22USD%22%7D%2C%22callback_url%22%3A%22myshop%3A%2F%2Fcb%22%2C%22options%22%3A%7B%22supported_tender_types%22%3A%5B%22CREDIT_CARD%22%5D%7D%2C%22state%22%3A%22s-b%22%7D"}"#,
            #"{"kind":"callback","at":"2026-11-21T09:01:00Z","url":"myshop://cb?data=%7B%22status%22%3A%22ok%22%2C%22client_transaction_id%22%3A%22CTX-B%22%2C%22state%22%3A%22s-b%22%7D"}"#,
        ]
        #expect(try PaylogProcess.run(["ingest", "-"] + store, stdin: day.joined(separator: "\n") + "\n").status == 0)
        #expect(try PaylogProcess.run(["expire", "--now", "2026-11-23T00:00:00Z"] + store).status == 0)
        let line = #"{"at":"2026-11-24T08:00:00Z","provider":"square","transaction_id":"TB","client_transaction_id":"CTX-B","amount_minor":700,"currency":"USD"}"#
        #expect(try PaylogProcess.run(["reconcile", "-"] + store, stdin: line + "\n").status == 0)

        let audit = try PaylogProcess.run(["audit", "pb"] + store).stdout
        let timeTravel = try PaylogProcess.run(["replay", "--payment", "pb"] + store).stdout
        for note in ["AMOUNT MISMATCH with the request", "matched by ", "failed by expiry: offline payment not reconciled"] {
            #expect(audit.contains(note), "the audit lacks \(note): \(audit)")
            #expect(timeTravel.contains(note), "replay --payment lacks \(note): \(timeTravel)")
        }
        #expect(!timeTravel.contains("µs"), "\(timeTravel)")
        // As of the expiry, the report line's notes are not there yet.
        let before = try PaylogProcess.run(["replay", "--payment", "pb", "--at", "4"] + store).stdout
        #expect(before.contains("failed by expiry") && !before.contains("AMOUNT MISMATCH"), "\(before)")

        let json = try PaylogProcess.jsonObject(try PaylogProcess.run(["replay", "--payment", "pb", "--json"] + store).stdout)
        let events = try #require(json["events"] as? [[String: Any]])
        let failed = try #require(events.first { $0["type"] as? String == "Failed" })
        #expect(!(failed["evidence"] as? String ?? "µs").contains("µs"), "\(failed)")
        #expect((failed["notes"] as? [String])?.contains { $0.hasPrefix("failed by expiry") } == true, "\(failed)")
        let reconciled = try #require(events.first { $0["type"] as? String == "Reconciled" })
        #expect((reconciled["notes"] as? [String])?.contains("AMOUNT MISMATCH with the request") == true, "\(reconciled)")
    }
}
