import ArgumentParser
import Foundation
import PaylogBench

/// `paylog bench`: measures the store and the workflow on temporary stores, each figure beside a raw-LMDB
/// baseline measured in the same run.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure appends, replay, scans, time travel and ingest on temporary stores, against raw LMDB.",
        discussion: """
            Scenarios: append-batched (one writer, 1,000 events of 300 bytes per append), append-concurrent (64 \
            tasks, one event per durable append), replay (rebuild every view from a log of realistic payment \
            events), replay-floor (the same rebuild with nothing folded: every event read and its payload decoded \
            as the replay's fold does, no payment evolved, no view written: the most this rebuild can do on the \
            log here), scan (decode every envelope), decode (decode every event's payload into its payment event on \
            one thread, no view: what the Python peer's replay does, for a like-for-like ratio), load-stream (one \
            random payment at a random version, from its stream), ingest (JSON Lines observations through the \
            workflow, durable). The raw-LMDB baseline (C API, same key sizes and batches, one stream index, no \
            encoding) runs in the same process and run; \
            append-concurrent also reports floor_events_per_s, its events written in paylog's own layout straight \
            on the C API, 64 per durable commit, before and after its run (the mean of the two): the most the disk \
            allows it.

            Sizes: by default 1,000,000 events for append-batched and for the log replay, replay-floor, scan, \
            decode and load-stream read (built once per run, untimed); 50,000 for append-concurrent; about 20,000 \
            for ingest; 20,000 lookups; 5,000 raw single commits. --events N sets the log to N and scales the \
            others: N/20 concurrent (at least 64), N/50 ingested (at least 50), N/50 lookups (100 to 20,000), N/200 \
            raw single commits (100 to 5,000).

            Memory: peak_rss_bytes is VmHWM, reset before each scenario through /proc/self/clear_refs (Linux 4.0 \
            and later; peak_rss_reset says whether it worked, else the peak is the process's since start). It \
            counts LMDB's mapped file pages; peak_anon_rss_bytes (sampled every 10 ms) counts heap and stacks only. \
            bytes_per_event is the store's used pages (LMDB's last page + 1), not data.mdb's sparse size.

            Cache: replay and replay-floor report log_resident_fraction, the share of the log in the page cache \
            when the clock starts (a log built just before is usually cached unless it outgrows memory); --cold \
            drops the log's pages first, so logs of different sizes are replayed alike.

            Stores go to a temporary directory removed at the end, or to --keep DIR, left in place; a later run \
            with the same --keep DIR and --events reads the payment log kept there (DIR/payment-log.json) instead \
            of building it again. The disk needs a few GiB free for the default sizes. See Docs/performance.md and \
            Tools/bench-compare.
            """)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A scenario to run: append-batched, append-concurrent, replay, replay-floor, scan, decode, load-stream or "
                + "ingest. Repeat it or separate names with commas; default all.", valueName: "name"))
    var scenario: [String] = []
    @Option(help: ArgumentHelp("The number of log events; the other sizes scale with it (see above).", valueName: "n"))
    var events: Int?
    @Flag(help: "Print one JSON object per scenario and line.") var json = false
    @Option(
        help: ArgumentHelp(
            "Keep the stores in this directory instead of a temporary one; reuse the payment log kept there.",
            valueName: "dir"))
    var keep: String?
    @Flag(
        help: "replay, replay-floor: drop the log's pages from the page cache before the clock starts (a replay from disk).")
    var cold = false

    /// The scenarios asked for, in the order given (every scenario when none was).
    var scenarios: [BenchScenario] {
        get throws {
            let names = scenario.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
            guard !names.isEmpty else { return BenchScenario.allCases }
            var chosen: [BenchScenario] = []
            for name in names where !name.isEmpty {
                guard let found = BenchScenario(name: name) else { throw ValidationError(BenchError.unknownScenario(name).description) }
                if !chosen.contains(found) { chosen.append(found) }
            }
            return chosen
        }
    }

    func validate() throws {
        _ = try scenarios
        if let events, events < 1 { throw ValidationError("--events must be at least 1 (got \(events)).") }
    }

    func run() async throws {
        let sizes = events.map { BenchSizes(events: $0) } ?? .standard
        let runner: BenchRunner
        do {
            runner = try BenchRunner(sizes: sizes, keep: keep, coldReplay: cold) { line in
                FileHandle.standardError.write(Data("bench: \(line)\n".utf8))
            }
        } catch {
            throw CLIError(error.description)
        }
        defer { runner.finish() }
        do { try runner.checkKeptPaymentLog(for: try scenarios) } catch { throw CLIError("\(error)") }
        var results: [BenchResult] = []
        for scenario in try scenarios {
            let result: BenchResult
            do { result = try await runner.run(scenario) } catch { throw CLIError(error.description) }
            if json { FileHandle.standardOutput.write(Data((result.jsonLine + "\n").utf8)) }
            results.append(result)
        }
        if !json { print(BenchCommand.table(results)) }
    }

    /// The human-readable table of `results`.
    static func table(_ results: [BenchResult]) -> String {
        func whole(_ value: Double) -> String { String(Int64(value.rounded())) }
        func mebibytes(_ bytes: Int) -> String { String(format: "%.0f", Double(bytes) / 1_048_576) }
        let rows = results.map { r -> [String] in
            [
                r.scenario.rawValue, String(r.events), whole(r.eventsPerSecond), r.rawEventsPerSecond.map(whole) ?? "-",
                r.rawEventsPerSecond.map { String(format: "%.3f", r.eventsPerSecond / $0) } ?? "-",
                String(format: "%.1f", r.p50Microseconds), String(format: "%.1f", r.p99Microseconds),
                mebibytes(r.peakRSSBytes), mebibytes(r.peakAnonymousRSSBytes), String(format: "%.0f", r.bytesPerEvent),
            ]
        }
        let header = ["scenario", "events", "events/s", "raw events/s", "ratio", "p50 µs", "p99 µs", "peak RSS MiB", "anon MiB", "bytes/event"]
        var notes = ["Latency is per operation: " + results.map { "\($0.scenario.rawValue) = \($0.scenario.operation)" }.joined(separator: "; ") + "."]
        if results.contains(where: { !$0.peakResetWorked }) {
            notes.append("The kernel did not let the peak RSS be reset: peaks are the process's since it started.")
        }
        return Output.table(header, rows) + "\n\n" + notes.joined(separator: "\n")
    }
}
