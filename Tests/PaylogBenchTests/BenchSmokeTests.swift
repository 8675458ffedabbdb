import Foundation
import PaylogBench
import TestSupport
import Testing

/// Runs every `paylog bench` scenario on a tiny workload: it executes and reports figures. No timing is asserted.
@Suite("paylog bench smoke run")
struct BenchSmokeTests {
    /// A few hundred events for every scenario.
    static let tiny = BenchSizes(
        logEvents: 200, concurrentEvents: 128, concurrentTasks: 64, ingestEvents: 200, lookups: 20, rawSingleEvents: 20)

    @Test("the scenario runs and reports events, a rate, latencies and the JSON fields", arguments: BenchScenario.allCases)
    func scenarioRuns(_ scenario: BenchScenario) async throws {
        let directory = TemporaryDirectory("paylog-bench-smoke")
        defer { directory.remove() }
        let runner = try BenchRunner(sizes: BenchSmokeTests.tiny, keep: directory.path)
        defer { runner.finish() }

        let result = try await runner.run(scenario)

        #expect(result.scenario == scenario)
        #expect(result.events > 0)
        #expect(result.eventsPerSecond > 0)
        #expect(result.latencies.count > 0)
        #expect(result.bytesPerEvent > 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.jsonLine.utf8)) as? [String: Any])
        #expect(object["scenario"] as? String == scenario.rawValue)
        for key in ["events", "events_per_s", "raw_events_per_s", "p50_us", "p99_us", "peak_rss_bytes", "bytes_per_event"] {
            #expect(object[key] != nil, "missing \(key)")
        }
        let hasBaseline = [.appendBatched, .appendConcurrent, .scan].contains(scenario)
        #expect((object["raw_events_per_s"] is NSNull) == !hasBaseline)
    }

    @Test("scenario names parse, and an unknown one is refused with the known names")
    func names() {
        #expect(BenchScenario(name: "load-stream") == .loadStream)
        #expect(BenchScenario(name: "Replay") == .replay)
        #expect(BenchScenario(name: "nope") == nil)
        #expect(BenchError.unknownScenario("nope").description.contains("append-batched"))
    }
}
