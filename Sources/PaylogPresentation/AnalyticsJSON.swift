import PaylogWorkflow

/// One analytics cell as a JSON object: a line of `paylog analytics --format jsonl`, an element of
/// `GET /v1/analytics`.
///
/// Written here rather than by `JSONSerialization`, which can do neither of two things the cell needs: an amount
/// sum is a 128-bit integer (`JSONSerialization` took no number above `Int64.max`, and the sum went out as a
/// string, against the schema), and two failure codes that differ only in Unicode normalization are two keys
/// (a `[String: Any]` merges them, since `String` equality is canonical equivalence).
public enum AnalyticsJSON {
    /// The cell as compact JSON with sorted keys: every field of ``AnalyticsCell/fields``; integers as JSON numbers
    /// of any size (consumers must read the `*_minor` sums as big integers), empty figures as null, other text as
    /// strings; `failure_codes` as an object from each code's text form (``FailureCode/text``) to its count.
    public static func line(_ cell: AnalyticsCell) -> String {
        var members: [(String, String)] = []
        for (key, value) in cell.fields where key != "failure_codes" {
            if value.isEmpty {
                members.append((key, "null"))
            } else if isIntegerLiteral(value) {
                members.append((key, value))
            } else {
                members.append((key, JSONText.quoted(value)))
            }
        }
        let codes = cell.failureCodeCounts.map { JSONText.quoted($0.code.text) + ":" + String($0.count) }
        members.append(("failure_codes", "{" + codes.joined(separator: ",") + "}"))
        members.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        return "{" + members.map { JSONText.quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// The `GET /v1/analytics` body: `{"cells":[…]}`, each cell as ``line(_:)`` writes it.
    public static func document(_ cells: [AnalyticsCell]) -> String {
        "{\"cells\":[" + cells.map(line).joined(separator: ",") + "]}"
    }

    /// Whether `text` is an integer as a JSON number writes it: an optional `-`, then digits without a leading zero.
    private static func isIntegerLiteral(_ text: String) -> Bool {
        let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
        guard let first = digits.first, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return false
        }
        return first != UInt8(ascii: "0") || digits.count == 1
    }
}
