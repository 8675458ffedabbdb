import PaylogDomain
import PaylogStore

/// The analytics view: the status view's payments grouped by UTC day of first request × provider × currency.
///
/// Aggregated when asked, from the inline status view (which carries each payment's funnel flags and times), so
/// it is exactly as current as the status view and needs no checkpoint of its own.
public enum Analytics {
    /// Every cell, ordered by day, provider, currency; optionally only days in `from...to` (`YYYY-MM-DD`).
    public static func cells(in store: EventStore, from: String? = nil, to: String? = nil) throws -> [AnalyticsCell] {
        var cells: [AnalyticsCellKey: AnalyticsCell] = [:]
        // One payment at a time: the cells keep counts and latencies, not the payments.
        try PaymentsProjection.forEachPayment(in: store) { payment in
            let day = payment.firstRequestedAtMicroseconds.map { String(Timestamp(microseconds: $0).rfc3339.prefix(10)) } ?? "unknown"
            if let from, day < from { return }
            if let to, day > to { return }
            let key = AnalyticsCellKey(day: day, provider: payment.provider.rawValue, currency: payment.amount?.currency.code ?? "?")
            cells[key, default: AnalyticsCell(key: key)].add(payment)
        }
        return cells.values.sorted { $0.key < $1.key }
    }

    /// CSV with a header row (RFC 4180 quoting); the header alone when there are no cells, so a job reading an empty
    /// day still finds its columns.
    public static func csv(_ cells: [AnalyticsCell]) -> String {
        let first = cells.first ?? AnalyticsCell(key: AnalyticsCellKey(day: "", provider: "", currency: ""))
        func quote(_ text: String) -> String {
            // By bytes, not Characters: "\r\n" is one Character, equal neither to "\r" nor to "\n", and a lone CR
            // ends a row for many readers too (RFC 4180 quotes a field holding CR, LF, a comma or a quote).
            // The quotes are doubled by bytes too: a quote followed by a combining mark is one Character.
            let quoteByte = UInt8(ascii: "\"")
            guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == quoteByte || $0 == 0x0A || $0 == 0x0D }) else {
                return text
            }
            var bytes: [UInt8] = [quoteByte]
            for byte in text.utf8 {
                bytes.append(byte)
                if byte == quoteByte { bytes.append(quoteByte) }
            }
            bytes.append(quoteByte)
            return String(decoding: bytes, as: UTF8.self)
        }
        var lines = [first.fields.map { $0.0 }.joined(separator: ",")]
        for cell in cells { lines.append(cell.fields.map { quote($0.1) }.joined(separator: ",")) }
        return lines.joined(separator: "\n") + "\n"
    }
}
