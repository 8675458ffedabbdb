/// The figures of one scenario.
public struct BenchResult: Sendable {
    /// The scenario measured.
    public var scenario: BenchScenario
    /// Events appended, replayed, scanned or ingested; for `load-stream`, streams loaded.
    public var events: Int
    /// Wall-clock seconds of the timed part (setup such as building the log is excluded).
    public var seconds: Double
    /// The raw-LMDB baseline's events per second for the same workload in this run, where the scenario has one.
    public var rawEventsPerSecond: Double?
    /// The scenario's operations (see ``BenchScenario/operation``) and their latencies.
    public var latencies: LatencyRecorder
    /// The peak resident set of the process during the scenario, in bytes (`VmHWM`, reset before the scenario when
    /// the kernel allows; it includes LMDB's mapped file pages). See ``peakResetWorked``.
    public var peakRSSBytes: Int
    /// Whether the peak was reset before the scenario; when false, ``peakRSSBytes`` is the process's peak since start.
    public var peakResetWorked: Bool
    /// The peak anonymous resident memory during the scenario (heap and stacks, not mapped files), sampled every 10 ms.
    public var peakAnonymousRSSBytes: Int
    /// The used bytes of the store (LMDB's last page + 1, × page size) per event in it.
    public var bytesPerEvent: Double
    /// The mean payload bytes per event in that store (what the events themselves carry).
    public var payloadBytesPerEvent: Double
    /// The raw-LMDB baseline's used bytes per event, where the scenario has a baseline.
    public var rawBytesPerEvent: Double?
    /// Scenario-specific figures, e.g. group-commit counts, the time to build the log.
    public var details: [String: Double]

    /// Events per second of the timed part.
    public var eventsPerSecond: Double { seconds > 0 ? Double(events) / seconds : 0 }

    /// The median operation latency in microseconds.
    public var p50Microseconds: Double { latencies.microseconds(atPercentile: 50) }

    /// The 99th-percentile operation latency in microseconds.
    public var p99Microseconds: Double { latencies.microseconds(atPercentile: 99) }

    /// The result as one JSON object on one line, keys in a fixed order: `scenario`, `events`, `events_per_s`,
    /// `raw_events_per_s` (null without a baseline), `p50_us`, `p99_us`, `peak_rss_bytes`, `bytes_per_event`, then
    /// `seconds`, `operations`, `operation`, `p999_us`, `max_us`, `peak_anon_rss_bytes`, `peak_rss_reset`,
    /// `payload_bytes_per_event`, `raw_bytes_per_event` and the details.
    public var jsonLine: String {
        func number(_ value: Double, decimals: Int) -> String {
            guard value.isFinite else { return "null" }
            if decimals == 0 { return String(Int64(value.rounded())) }
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            let rounded = (value * scale).rounded() / scale
            return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
        }
        func text(_ value: String) -> String {
            var escaped = "\""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                case "\n": escaped += "\\n"
                default:
                    if scalar.value < 0x20 {
                        escaped += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                            + String(scalar.value, radix: 16)
                    } else {
                        escaped.unicodeScalars.append(scalar)
                    }
                }
            }
            return escaped + "\""
        }
        var fields: [(String, String)] = [
            ("scenario", text(scenario.rawValue)),
            ("events", String(events)),
            ("events_per_s", number(eventsPerSecond, decimals: 0)),
            ("raw_events_per_s", rawEventsPerSecond.map { number($0, decimals: 0) } ?? "null"),
            ("p50_us", number(p50Microseconds, decimals: 1)),
            ("p99_us", number(p99Microseconds, decimals: 1)),
            ("peak_rss_bytes", String(peakRSSBytes)),
            ("bytes_per_event", number(bytesPerEvent, decimals: 1)),
            ("seconds", number(seconds, decimals: 4)),
            ("operations", String(latencies.count)),
            ("operation", text(scenario.operation)),
            ("p999_us", number(latencies.microseconds(atPercentile: 99.9), decimals: 1)),
            ("max_us", number(latencies.microseconds(atPercentile: 100), decimals: 1)),
            ("peak_anon_rss_bytes", String(peakAnonymousRSSBytes)),
            ("peak_rss_reset", peakResetWorked ? "true" : "false"),
            ("payload_bytes_per_event", number(payloadBytesPerEvent, decimals: 1)),
            ("raw_bytes_per_event", rawBytesPerEvent.map { number($0, decimals: 1) } ?? "null"),
        ]
        for (key, value) in details.sorted(by: { $0.key < $1.key }) {
            fields.append((key, number(value, decimals: 4)))
        }
        return "{" + fields.map { "\(text($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
}
