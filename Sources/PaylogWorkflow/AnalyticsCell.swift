import Histogram
import PaylogDomain

/// One cell of the analytics view: counts, amounts, failure codes, the funnel and latency percentiles of the
/// payments first requested on one day with one provider in one currency.
public struct AnalyticsCell: Sendable {
    /// The cell's grouping.
    public var key: AnalyticsCellKey
    /// Payments requested (funnel step 1) and their amounts in minor units. The sums are 128-bit: one payment's
    /// amount may be up to `Int64.max` minor units, and two such overflowed an `Int64` sum (a trap, every time the
    /// analytics ran thereafter).
    public var requested = 0, requestedMinor: Int128 = 0
    /// Payments whose app switch was reported (funnel step 2).
    public var switched = 0
    /// Payments that got any callback (funnel step 3).
    public var calledBack = 0
    /// Payments that got a successful callback (funnel step 4).
    public var succeeded = 0
    /// Payments now completed (successful, not yet reconciled) and their amounts.
    public var completed = 0, completedMinor: Int128 = 0
    /// Payments that were offline at some point and their amounts.
    public var offline = 0, offlineMinor: Int128 = 0
    /// Payments now reconciled and their amounts.
    public var reconciled = 0, reconciledMinor: Int128 = 0
    /// Payments now failed and their amounts.
    public var failed = 0, failedMinor: Int128 = 0
    /// Failed payments by raw error code, byte for byte (``FailureCode``; its no-code bucket when the failure had no
    /// provider code, e.g. our timeout).
    public var failureCodes: [FailureCode: Int] = [:]
    /// Milliseconds from the first request to the first callback, one value per payment that had both, in the order
    /// the payments were added.
    public private(set) var requestToCallbackMsValues: [UInt64] = []
    /// Seconds from going offline to reconciliation, one value per payment that had both.
    public private(set) var offlineToReconcileSValues: [UInt64] = []

    /// ``requestToCallbackMsValues`` as an HdrHistogram with 3 significant digits, built when asked.
    ///
    /// A cell keeps its values rather than its histograms: a histogram of this range holds about 170 KB of counts
    /// whatever it records (the other one about 115 KB), and a log of a few years holds thousands of cells (a day ×
    /// provider × currency each), so the analytics of the benchmark's 1 M-event log (4,393 cells) took 1.45 GB where
    /// the values take a few MB.
    public var requestToCallbackMs: Histogram<UInt64> {
        Self.histogram(of: requestToCallbackMsValues, highestTrackableValue: 7 * 24 * 3_600_000)
    }

    /// ``offlineToReconcileSValues`` as an HdrHistogram with 3 significant digits, built when asked.
    public var offlineToReconcileS: Histogram<UInt64> {
        Self.histogram(of: offlineToReconcileSValues, highestTrackableValue: 90 * 24 * 3_600)
    }

    /// An empty cell.
    public init(key: AnalyticsCellKey) {
        self.key = key
    }

    /// `values` recorded in a histogram of 3 significant digits that grows past `highestTrackableValue` as needed.
    private static func histogram(of values: [UInt64], highestTrackableValue: UInt64) -> Histogram<UInt64> {
        var histogram = Histogram<UInt64>(highestTrackableValue: highestTrackableValue, numberOfSignificantValueDigits: .three)
        histogram.autoResize = true
        for value in values { _ = histogram.record(value) }
        return histogram
    }

    /// Adds one payment.
    public mutating func add(_ p: Payment) {
        let minor = Int128(p.amount?.minorUnits ?? 0)
        requested += 1
        requestedMinor += minor
        if p.sawAppSwitch { switched += 1 }
        if p.sawCallback { calledBack += 1 }
        if p.sawSuccess { succeeded += 1 }
        if p.wasOffline { offline += 1; offlineMinor += minor }
        switch p.status {
        case .completed: completed += 1; completedMinor += minor
        case .reconciled: reconciled += 1; reconciledMinor += minor
        case .failed:
            failed += 1
            failedMinor += minor
            failureCodes[FailureCode(p.errorCode), default: 0] += 1
        case .requested, .switched, .offline: break
        }
        if let start = p.firstRequestedAtMicroseconds, let callback = p.firstCallbackAtMicroseconds, callback >= start {
            // In 128 bits: two times in the log may be further apart than an `Int64` of microseconds holds (an
            // imported log's, or one recorded before imports checked their range), and a reader must not trap.
            requestToCallbackMsValues.append(UInt64((Int128(callback) - Int128(start)) / 1_000))
        }
        if let offlineAt = p.offlineAtMicroseconds, let reconciledAt = p.reconciledAtMicroseconds, reconciledAt >= offlineAt {
            offlineToReconcileSValues.append(UInt64((Int128(reconciledAt) - Int128(offlineAt)) / 1_000_000))
        }
    }

    /// The failure codes and their counts, provider codes by their bytes, then the no-code bucket.
    public var failureCodeCounts: [(code: FailureCode, count: Int)] {
        failureCodes.sorted { $0.key < $1.key }.map { (code: $0.key, count: $0.value) }
    }

    /// The cell as a flat dictionary with stable keys, for CSV and JSON Lines.
    public var fields: [(String, String)] {
        func percentile(_ h: Histogram<UInt64>, _ p: Double) -> String { h.totalCount == 0 ? "" : String(h.valueAtPercentile(p)) }
        let requestToCallbackMs = requestToCallbackMs
        let offlineToReconcileS = offlineToReconcileS
        return [
            ("day", key.day), ("provider", key.provider), ("currency", key.currency),
            ("requested", String(requested)), ("switched", String(switched)), ("called_back", String(calledBack)),
            ("succeeded", String(succeeded)),
            ("completed", String(completed)), ("offline", String(offline)), ("reconciled", String(reconciled)),
            ("failed", String(failed)),
            ("requested_minor", String(requestedMinor)), ("completed_minor", String(completedMinor)),
            ("offline_minor", String(offlineMinor)), ("reconciled_minor", String(reconciledMinor)),
            ("failed_minor", String(failedMinor)),
            ("failure_codes", failureCodeCounts.map { "\($0.code.text):\($0.count)" }.joined(separator: ";")),
            ("request_to_callback_ms_p50", percentile(requestToCallbackMs, 50)),
            ("request_to_callback_ms_p90", percentile(requestToCallbackMs, 90)),
            ("request_to_callback_ms_p99", percentile(requestToCallbackMs, 99)),
            ("offline_to_reconcile_s_p50", percentile(offlineToReconcileS, 50)),
            ("offline_to_reconcile_s_p90", percentile(offlineToReconcileS, 90)),
            ("offline_to_reconcile_s_p99", percentile(offlineToReconcileS, 99)),
        ]
    }
}
