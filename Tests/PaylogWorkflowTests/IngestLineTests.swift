import Testing

@testable import PaylogWorkflow

/// How `paylog ingest` reads one line before parsing it.
@Suite("Ingest lines")
struct IngestLineTests {
    static let bare = #"{"kind":"fail","payment":"pay-1","at":"2026-03-02T10:00:00Z","reason":"timeout"}"#

    @Test(
        "whitespace around a line, ASCII or Unicode, is trimmed as before; the line reads the same",
        arguments: ["", " ", "\t", "\r", "\n", "\u{00A0}", "\u{2028}", "\u{3000}", " \t\u{00A0}"])
    func trimmed(_ padding: String) throws {
        let expected = try Observation.parse(Self.bare)
        for line in [padding + Self.bare, Self.bare + padding, padding + Self.bare + padding] {
            var report = IngestReport()
            #expect(report.observation(line, number: 1, defaultKind: nil) == expected, "\(Array(line.unicodeScalars.prefix(3)))")
            #expect(report.lines == 1 && report.rejected == 0)
        }
    }

    @Test("a report line missing its transaction id or its matching key is told both are needed, whichever is missing")
    func reportLineFields() {
        let lines = [
            #"{"at":"2026-11-22T08:00:01Z","provider":"sumup","transaction_id":"TXB","amount_minor":1250,"currency":"EUR"}"#,
            #"{"at":"2026-11-22T08:00:01Z","provider":"sumup","transaction_code":"TXB","amount_minor":1250,"currency":"EUR"}"#,
        ]
        var messages: [String] = []
        for line in lines {
            do {
                _ = try Observation.parse(line, defaultKind: "reconcile")
                Issue.record("accepted: \(line)")
            } catch {
                messages.append("\(error)")
            }
        }
        #expect(messages.count == 2)
        #expect(messages.first?.hasPrefix(#""foreign_tx_id" or "transaction_code" is required"#) == true, "\(messages)")
        #expect(messages.last?.hasPrefix(#""transaction_id" is required"#) == true, "\(messages)")
        #expect(messages.allSatisfy { $0.contains(#"the provider's "transaction_id" and a key that finds the payment"#) }, "\(messages)")
    }

    @Test("a line of only whitespace is blank: not counted, not rejected", arguments: ["", " ", "\r\n", "\u{00A0}\t"])
    func blank(_ line: String) {
        var report = IngestReport()
        #expect(report.observation(line, number: 1, defaultKind: nil) == nil)
        #expect(report.lines == 0 && report.rejected == 0)
    }

    @Test("a line that is not JSON is counted and rejected with its number, padded or not")
    func unreadable() {
        var report = IngestReport()
        #expect(report.observation("nope}", number: 4, defaultKind: nil) == nil)
        #expect(report.observation(" {nope ", number: 5, defaultKind: nil) == nil)
        #expect(report.lines == 2 && report.rejected == 2)
        #expect(report.errors.map(\.line) == [4, 5])
    }
}
