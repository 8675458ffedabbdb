import Foundation
import Testing
import TestSupport

/// What `paylog analytics` writes can be read back exactly: CSV quoting, failure codes, large sums.
@Suite("analytics output, end to end")
struct AnalyticsOutputTests {
    /// Whether `text`'s bytes contain `part`'s bytes (not `String.contains`, which treats canonically equivalent
    /// text as equal: the NFC and NFD codes below would match each other).
    static func bytes(of text: String, contain part: String) -> Bool {
        let haystack = Array(text.utf8), needle = Array(part.utf8)
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    static let codes = [
        "Declined%0D%0Aby%20bank", "a%3Ab%3Bc", "none", "D%C3%A9clin%C3%A9", "De%CC%81cline%CC%81", "back%5Cslash",
    ]

    /// iZettle payments failed with each of ``codes`` and one failed by our timeout; two Square payments whose
    /// amounts sum past Int64.max.
    static func day() -> String {
        var lines: [String] = []
        for (index, code) in codes.enumerated().map({ ($0.offset, $0.element) }) + [(codes.count, "")] {
            let request = "izettle://x-callback-url/payment/1.0?x-source=shop&x-success=myshop%3A%2F%2Fcb&x-failure=myshop%3A%2F%2Fcb&api-key=K&price=5&currency=EUR&title=T&reference=ref-\(index)"
            lines.append(#"{"kind":"request","payment":"f\#(index)","at":"2026-11-21T09:00:00Z","url":"\#(request)"}"#)
            if code.isEmpty {
                lines.append(#"{"kind":"fail","payment":"f\#(index)","at":"2026-11-21T09:05:00Z","reason":"no callback within 120 s"}"#)
            } else {
                lines.append(#"{"kind":"callback","payment":"f\#(index)","at":"2026-11-21T09:00:30Z","url":"myshop://cb?reference=ref-\#(index)&errorCode=\#(code)"}"#)
            }
        }
        for index in 1...2 {
            let json = #"{"amount_money":{"amount":\#(Int64.max / 2 + 1),"currency_code":"USD"},"callback_url":"myshop://cb","client_id":"c","version":"1.3","state":"st-big\#(index)","options":{"supported_tender_types":["CREDIT_CARD"]}}"#
            let url = "square-commerce-v1://payment/create?data=" + json.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            lines.append(#"{"kind":"request","payment":"big\#(index)","at":"2026-11-21T09:00:00Z","url":"\#(url)"}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("failure codes are counted byte for byte and written unambiguously; CR/LF are quoted in CSV; sums are JSON numbers")
    func failureCodesAndSums() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path + "/store"]
        try Self.day().write(toFile: dir.path + "/day.jsonl", atomically: true, encoding: .utf8)
        let ingest = try PaylogProcess.run(["ingest", dir.path + "/day.jsonl"] + store)
        #expect(ingest.status == 0, "\(ingest.stdout)")

        // Codes by their bytes; `\`, `:` and `;` escaped; the provider code `none` apart from the no-code bucket.
        let codes = "Declined\r\nby bank:1;De\u{301}cline\u{301}:1;D\u{E9}clin\u{E9}:1;"
            + #"a\:b\;c:1;back\\slash:1;\none:1;none:1"#
        let csv = try PaylogProcess.run(["analytics", "--format", "csv"] + store)
        #expect(csv.status == 0)
        // The field holding CR LF is quoted (RFC 4180), so a CSV reader sees header + two rows.
        #expect(Self.bytes(of: csv.stdout, contain: ",\"" + codes + "\","), "\(csv.stdout.debugDescription)")
        let rows = csv.stdout.replacingOccurrences(of: "\"" + codes + "\"", with: "CODES").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.count == 4 && rows.last == "", "\(rows)")

        let jsonl = try PaylogProcess.run(["analytics", "--format", "jsonl"] + store)
        #expect(jsonl.status == 0)
        let object = #""failure_codes":{"Declined\r\nby bank":1,"De"# + "\u{301}cline\u{301}" + #"":1,"D"# + "\u{E9}clin\u{E9}"
            + #"":1,"a\\:b\\;c":1,"back\\\\slash":1,"\\none":1,"none":1}"#
        #expect(Self.bytes(of: jsonl.stdout, contain: object), "\(jsonl.stdout)")
        // 2 × (Int64.max / 2 + 1) = 2^63: one past Int64.max, still a JSON number.
        #expect(jsonl.stdout.contains(#""requested_minor":9223372036854775808,"#), "\(jsonl.stdout)")
        for line in jsonl.stdout.split(separator: "\n") {
            #expect(throws: Never.self) { try PaylogProcess.jsonObject(String(line)) }
        }
    }
}
