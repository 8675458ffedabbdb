import Foundation
import TestSupport
import Testing

/// `Tools/bench-alternate` on the built `paylog`, given as both builds, on a tiny append-batched run: the order it
/// alternates the builds in, the figures it reads from each run, the summary it computes from them, and its errors.
/// No timing is asserted.
@Suite("Tools/bench-alternate")
struct BenchAlternateToolTests {
    /// The script, found from this file's place in the repository.
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tools/bench-alternate").path

    static func run(_ arguments: [String]) throws -> PaylogProcess.Result {
        try PaylogProcess.run(arguments, executable: script)
    }

    @Test("alternates the two builds, A first in odd rounds and B first in even ones, and prints each run's figures")
    func alternatesAndPrints() throws {
        let paylog = try PaylogProcess.binary()
        let result = try Self.run(["-n", "2", "--scenario", "append-batched", "--events", "2000", paylog, paylog])

        #expect(result.status == 0, "\(result.stderr)")
        let runs = result.stdout.split(separator: "\n").filter { $0.hasPrefix("round ") }
        #expect(runs.map { String($0.prefix(9)) } == ["round 1 A", "round 1 B", "round 2 B", "round 2 A"])
        for run in runs {
            #expect(run.contains("events_per_s ") && run.contains("ratio_to_raw ") && run.contains("cpu_s "), "\(run)")
        }
        #expect(result.stdout.contains("ratio_to_raw, paired B / A per round: "))
    }

    @Test("its JSON summary holds each figure's medians and ranges and the paired ratios of the main figure")
    func summarises() throws {
        let paylog = try PaylogProcess.binary()
        let result = try Self.run(["-n", "2", "--scenario", "append-batched", "--events", "2000", "--json", paylog, paylog])

        #expect(result.status == 0, "\(result.stderr)")
        let summary = try PaylogProcess.jsonObject(result.stdout)
        #expect(summary["scenario"] as? String == "append-batched")
        #expect(summary["rounds"] as? Int == 2)
        #expect(summary["main_figure"] as? String == "ratio_to_raw")
        let figures = try #require(summary["figures"] as? [String: [String: Any]])
        #expect(Set(figures.keys).isSuperset(of: ["events_per_s", "ratio_to_raw", "p99_us", "cpu_s"]))
        // append-batched has no floor and no writer figure: only what the runs printed is summarised.
        #expect(figures["floor_share"] == nil && figures["writer_cpu_us_per_event"] == nil)
        for (name, figure) in figures {
            let aMedian = try #require(figure["a_median"] as? Double)
            let bMedian = try #require(figure["b_median"] as? Double)
            let aMin = try #require(figure["a_min"] as? Double)
            let aMax = try #require(figure["a_max"] as? Double)
            #expect(aMin <= aMedian && aMedian <= aMax, "\(name)")
            #expect(aMedian > 0 && bMedian > 0, "\(name)")
            let ratio = try #require(figure["b_over_a"] as? Double)
            #expect(abs(ratio - bMedian / aMedian) < 1e-9, "\(name)")
        }
        let paired = try #require(summary["paired_b_over_a"] as? [Double])
        #expect(paired.count == 2)
        #expect(paired.allSatisfy { $0 > 0 })
        let higher = try #require(summary["rounds_b_higher"] as? Int)
        #expect(higher == paired.filter { $0 > 1 }.count)
    }

    @Test("a build that is not an executable file is refused before anything runs")
    func refusesAMissingBuild() throws {
        let paylog = try PaylogProcess.binary()
        let result = try Self.run(["-n", "1", "/nonexistent/paylog", paylog])

        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/paylog is not an executable file"))
        #expect(!result.stdout.contains("round 1"))
    }

    @Test("a run that fails names the command and its error")
    func reportsAFailingRun() throws {
        let paylog = try PaylogProcess.binary()
        let result = try Self.run(["-n", "1", "--scenario", "no-such-scenario", paylog, paylog])

        #expect(result.status == 1)
        #expect(result.stderr.contains("bench --scenario no-such-scenario --json exited with status"))
        #expect(result.stderr.contains("no-such-scenario"))
    }
}
