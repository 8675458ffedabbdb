import Histogram

/// Per-operation latencies of one scenario, kept in an HdrHistogram in nanoseconds (3 significant digits).
public struct LatencyRecorder: Sendable {
    private var histogram = Histogram<UInt64>(highestTrackableValue: 60 * 1_000_000_000, numberOfSignificantValueDigits: .three)

    /// An empty recorder.
    public init() {
        histogram.autoResize = true
    }

    /// Records one operation that took `nanoseconds`.
    public mutating func record(nanoseconds: UInt64) {
        _ = histogram.record(max(nanoseconds, 1))
    }

    /// Records one operation that started at `start` (a ``Stopwatch/now()`` reading) and ended now; returns now.
    @discardableResult
    mutating func record(since start: UInt64) -> UInt64 {
        let end = Stopwatch.now()
        record(nanoseconds: end &- start)
        return end
    }

    /// Adds every sample of `other`.
    public mutating func merge(_ other: LatencyRecorder) {
        histogram.add(other.histogram)
    }

    /// The number of operations recorded.
    public var count: Int { Int(histogram.totalCount) }

    /// The latency at `percentile` (0–100) in microseconds, or 0 when nothing was recorded.
    public func microseconds(atPercentile percentile: Double) -> Double {
        guard histogram.totalCount > 0 else { return 0 }
        return Double(histogram.valueAtPercentile(percentile)) / 1_000
    }
}
