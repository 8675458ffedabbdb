import CoreMetrics
import Foundation
import Metrics
import PaylogStore
import Prometheus
import Synchronization

/// The service's metrics, recorded through swift-metrics into a Prometheus registry of its own (so several
/// servers in one test process do not share counters) and served as text at `/metrics`.
///
/// | metric | kind | labels |
/// |---|---|---|
/// | `paylog_http_requests_total` | counter | `route`, `method`, `status` |
/// | `paylog_http_request_duration_seconds` | histogram | `route`, `method` |
/// | `paylog_append_duration_seconds` | histogram | `endpoint` |
/// | `paylog_group_commit_size` | histogram | — |
/// | `paylog_projection_lag_events` | gauge | `projection` |
/// | `paylog_findings_total` | counter | `rule`, `severity` |
/// | `paylog_events_appended_total` | counter | `endpoint` |
/// | `paylog_mapped_memory_budget_bytes` | gauge | — |
/// | `paylog_mapped_memory_releases_total` | counter | — |
public final class ServiceMetrics: Sendable {
    /// The registry `/metrics` prints.
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    /// The store's budget releases already added to `paylog_mapped_memory_releases_total`.
    private let releasesCounted = Mutex(0)

    /// A fresh registry and factory.
    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
        ]
        factory.defaultValueHistogramBuckets = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
        self.factory = factory
    }

    /// Counts one answered request.
    func request(route: String, method: String, status: Int, seconds: Double) {
        Counter(label: "paylog_http_requests_total", dimensions: [("route", route), ("method", method), ("status", String(status))], factory: factory)
            .increment()
        Metrics.Timer(label: "paylog_http_request_duration_seconds", dimensions: [("route", route), ("method", method)], factory: factory)
            .recordNanoseconds(Int64(seconds * 1e9))
    }

    /// Records how long one decide-and-append took and how many events it appended.
    func append(endpoint: String, nanoseconds: UInt64, events: Int) {
        Metrics.Timer(label: "paylog_append_duration_seconds", dimensions: [("endpoint", endpoint)], factory: factory)
            .recordNanoseconds(Int64(nanoseconds))
        if events > 0 {
            Counter(label: "paylog_events_appended_total", dimensions: [("endpoint", endpoint)], factory: factory)
                .increment(by: events)
        }
    }

    /// Counts a compatibility finding on newly recorded evidence.
    func finding(rule: String, severity: String) {
        Counter(label: "paylog_findings_total", dimensions: [("rule", rule), ("severity", severity)], factory: factory).increment()
    }

    /// Starts recording the events each of the store's commits appended (``PaylogStore/WriterStatistics/observeGroupCommits(_:)``).
    func observe(_ store: EventStore) {
        let recorder = Recorder(label: "paylog_group_commit_size", dimensions: [], aggregate: true, factory: factory)
        store.writerStatistics.observeGroupCommits { size in recorder.record(size) }
    }

    /// The Prometheus text exposition, with the projection lag and the mapped-memory figures read now.
    func exposition(store: EventStore) -> String {
        Gauge(label: "paylog_mapped_memory_budget_bytes", dimensions: [], factory: factory)
            .record(Double(store.mappedMemoryBudget ?? 0))
        Gauge(label: "paylog_mapped_memory_one_page_faults", dimensions: [], factory: factory)
            .record(store.mapsOnePagePerFault ? 1 : 0)
        let releases = store.mappedMemoryReleases
        let newReleases = releasesCounted.withLock { counted in
            defer { counted = max(counted, releases) }
            return max(0, releases - counted)
        }
        Counter(label: "paylog_mapped_memory_releases_total", dimensions: [], factory: factory)
            .increment(by: newReleases)
        if let lag = try? store.projectionLag() {
            for (projection, events) in lag {
                Gauge(label: "paylog_projection_lag_events", dimensions: [("projection", projection)], factory: factory)
                    .record(Double(events))
            }
        }
        return registry.emitToString()
    }
}
