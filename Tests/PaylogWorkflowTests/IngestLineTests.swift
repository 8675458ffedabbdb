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
