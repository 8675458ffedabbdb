import Foundation
import PaylogBench
import Synchronization
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
        if scenario == .appendConcurrent {
            // The scenario's ceiling, measured before and after it (LayoutFloorBaseline), and their mean.
            let floor = try #require(result.details["floor_events_per_s"])
            let before = try #require(result.details["floor_before_events_per_s"])
            let after = try #require(result.details["floor_after_events_per_s"])
            #expect(before > 0 && after > 0)
            #expect(abs(floor - (before + after) / 2) <= 1)
            #expect(object["floor_events_per_s"] as? Double == floor)
        }
        if scenario == .decode {
            // Every event decoded into its domain event: the counts per kind add up to the events read, and the
            // log's payments give more than one kind.
            let kinds = result.details.filter { $0.key.hasPrefix("decoded_") }
            #expect(kinds.count == Int(try #require(result.details["event_kinds"])))
            #expect(kinds.count > 1)
            #expect(Int(kinds.values.reduce(0, +)) == result.events)
            #expect(kinds["decoded_Requested"] != nil && kinds["decoded_AppSwitched"] != nil)
        }
        if scenario == .loadStream {
            // Whether the budgeted map faulted one page at a time: the reader's figures depend on it.
            let onePage = try #require(result.details["one_page_faults"])
            #expect(onePage == 0 || onePage == 1)
            #expect(object["one_page_faults"] as? Double == onePage)
        }
    }

    /// True when `path` is on a file system whose pages cannot be dropped from memory (tmpfs, ramfs).
    /// (The file system of the longest mount point in `/proc/mounts` that contains the path.)
    private static func isMemoryBacked(_ path: String) -> Bool {
        guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return false }
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var best: (point: String, type: String) = ("", "")
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let point = String(fields[1])
            let contains = point == "/" || real == point || real.hasPrefix(point + "/")
            if contains && point.count > best.point.count { best = (point, String(fields[2])) }
        }
        return ["tmpfs", "ramfs"].contains(best.type)
    }

    @Test("replay reports how much of its log was cached; --cold drops the log from the page cache first")
    func coldReplay() async throws {
        var fractions: [Bool: Double] = [:]
        for cold in [false, true] {
            let directory = TemporaryDirectory("paylog-bench-cold")
            defer { directory.remove() }
            // Enough events that the few pages the open store keeps mapped are a small share of the file.
            let sizes = BenchSizes(
                logEvents: 5_000, concurrentEvents: 128, concurrentTasks: 64, ingestEvents: 200, lookups: 20, rawSingleEvents: 20)
            let runner = try BenchRunner(sizes: sizes, keep: directory.path, coldReplay: cold)
            defer { runner.finish() }
            let result = try await runner.run(.replay)
            #expect(result.details["cold"] == (cold ? 1 : 0))
            // The phases' times are reported, and add up to no more than the replay took.
            let phases = try ["stream_ends_s", "fold_s", "write_s", "catch_up_s"].map { name in
                try #require(result.details[name], "\(name)")
            }
            #expect(phases.allSatisfy { $0 >= 0 } && phases[1] > 0 && phases[2] > 0, "\(phases)")
            #expect(phases.reduce(0, +) <= result.seconds, "\(phases) in \(result.seconds) s")
            let fraction = try #require(result.details["log_resident_fraction"])
            #expect((0...1).contains(fraction), "\(fraction)")
            fractions[cold] = fraction
            if cold && Self.isMemoryBacked(directory.path) {
                #expect(fraction == 1, "tmpfs pages cannot be dropped")
            }
        }
        let (warm, cold) = (try #require(fractions[false]), try #require(fractions[true]))
        // A log just built is in the page cache; dropped, most of it is not (a few pages stay mapped by the store).
        #expect(warm > 0.9)
        let directory = TemporaryDirectory("paylog-bench-cold-fs")
        defer { directory.remove() }
        if !Self.isMemoryBacked(directory.path) { #expect(cold < warm / 2, "cold \(cold), warm \(warm)") }
    }

    @Test("a payment log kept with --keep is read again by the next run of the same size; a run of another size stops and leaves it")
    func keptLogReused() async throws {
        let directory = TemporaryDirectory("paylog-bench-keep")
        defer { directory.remove() }
        func run(_ sizes: BenchSizes, keep: String) async throws -> (result: BenchResult, lines: [String]) {
            let lines = Mutex<[String]>([])
            let runner = try BenchRunner(sizes: sizes, keep: keep) { line in lines.withLock { $0.append(line) } }
            defer { runner.finish() }
            let result = try await runner.run(.scan)
            return (result, lines.withLock { $0 })
        }
        let first = try await run(Self.tiny, keep: directory.path)
        #expect(first.lines.contains { $0.hasPrefix("building a log of 200") })
        let manifest = directory.path + "/payment-log.json"
        let kept = try #require(FileManager.default.contents(atPath: manifest))
        let second = try await run(Self.tiny, keep: directory.path)
        #expect(second.lines.contains { $0.hasPrefix("reusing the payment log of 200 events") }, "\(second.lines)")
        #expect(!second.lines.contains { $0.hasPrefix("building a log") })
        #expect(second.result.events == first.result.events)
        #expect(second.result.bytesPerEvent == first.result.bytesPerEvent)
        // Another size in the same directory would build over the kept log: the run stops, naming both sizes.
        var larger = Self.tiny
        larger.logEvents = 300
        let refused = await #expect(throws: BenchError.self) { try await run(larger, keep: directory.path) }
        let message = refused.map { "\($0)" } ?? ""
        #expect(message.contains("payment log of 200 events") && message.contains("--events 200"), "\(message)")
        #expect(message.contains("asks for 300"), "\(message)")
        #expect(FileManager.default.contents(atPath: manifest) == kept)
        // The check `paylog bench` makes before any scenario runs: only scenarios reading the log are refused.
        let early = try BenchRunner(sizes: larger, keep: directory.path)
        #expect(throws: BenchError.self) { try early.checkKeptPaymentLog(for: [.appendBatched, .scan]) }
        try early.checkKeptPaymentLog(for: [.appendBatched, .ingest])
        let third = try await run(Self.tiny, keep: directory.path)
        #expect(third.lines.contains { $0.hasPrefix("reusing the payment log of 200 events") }, "\(third.lines)")
        #expect(third.result.bytesPerEvent == first.result.bytesPerEvent)
        // A kept directory moved elsewhere reads its own copy of the log, not the path it was built in.
        let moved = TemporaryDirectory("paylog-bench-keep-moved")
        defer { moved.remove() }
        try FileManager.default.removeItem(atPath: moved.path)
        try FileManager.default.moveItem(atPath: directory.path, toPath: moved.path)
        let fifth = try await run(Self.tiny, keep: moved.path)
        #expect(fifth.lines.contains { $0.hasPrefix("reusing the payment log of 200 events kept in \(moved.path)/payment-log") },
                "\(fifth.lines)")
        #expect(fifth.result.bytesPerEvent == first.result.bytesPerEvent)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/payment-log"))
        try FileManager.default.moveItem(atPath: moved.path, toPath: directory.path)
        // Another directory builds its own.
        let other = TemporaryDirectory("paylog-bench-keep-other")
        defer { other.remove() }
        let fourth = try await run(larger, keep: other.path)
        #expect(fourth.lines.contains { $0.hasPrefix("building a log of 300") })
        #expect(fourth.result.events == 300)
    }

    @Test("scenario names parse, and an unknown one is refused with the known names")
    func names() {
        #expect(BenchScenario(name: "load-stream") == .loadStream)
        #expect(BenchScenario(name: "Replay") == .replay)
        #expect(BenchScenario(name: "nope") == nil)
        #expect(BenchError.unknownScenario("nope").description.contains("append-batched"))
    }
}
