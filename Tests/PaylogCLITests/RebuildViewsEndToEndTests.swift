import Foundation
import TestSupport
import Testing

@Suite("rebuild-views and replay, end to end")
struct RebuildViewsEndToEndTests {
    @Test("rebuild-views moves the payments view to a new generation, with and without a mapped-page limit; replay then finds it matching a log-order rebuild")
    func rebuildThenReplay() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        #expect(try PaylogProcess.run(["demo", "--payments", "30"] + store).status == 0)
        let before = try PaylogProcess.run(["status", "--json"] + store).stdout
        for (generation, extra) in [(1, [String]()), (2, ["--mapped-limit", "16"])] {
            let rebuilt = try PaylogProcess.run(["rebuild-views"] + extra + store)
            #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
            #expect(rebuilt.stdout.contains("payments view generation \(generation)"), "\(rebuilt.stdout)")
            let phases = /took [0-9.]+ s: stream ends [0-9.]+ s, fold [0-9.]+ s, write [0-9.]+ s, catch-up [0-9.]+ s/
            #expect(rebuilt.stdout.contains(phases), "\(rebuilt.stdout)")
            #expect(try PaylogProcess.run(["status", "--json"] + store).stdout == before)
            let replay = try PaylogProcess.run(["replay", "--json"] + store)
            let object = try PaylogProcess.jsonObject(replay.stdout)
            #expect(object["projections_match"] as? Bool == true)
            #expect(object["chain_ok"] as? Bool == true)
            #expect(replay.status == 5, "the demo's planted contract violations are error findings")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/rebuild-scratch-payments"), "sort runs are removed")
    }

    @Test("a mapped-page limit under 16 MiB is refused before anything runs")
    func tinyLimit() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let result = try PaylogProcess.run(["rebuild-views", "--mapped-limit", "8", "--store", dir.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--mapped-limit must be at least 16 MiB"))
    }
}
