import Foundation
import TestSupport
import Testing

/// `paylog import-log` decodes batches ahead while the store imports the one before
/// (`ImportLogCommand.importLines`): whatever finishes first, the failure reported is the first in the file, and
/// nothing is imported. `paylog export` encodes chunks in halves at once (`ExportCommand.lines`) and must still write
/// the log in order. Docs/cli.md, *import-log* and *export*.
@Suite("paylog import-log and export keep the log's order while they work on both cores")
struct ImportPipelineEndToEndTests {
    /// The export of a demo day of 1,500 payments (over 5,000 events: three batches of 2,000 and more), as lines.
    static func exportLines(in dir: TemporaryDirectory) throws -> [String] {
        #expect(try PaylogProcess.run(["demo", "--payments", "1500", "--store", dir.path + "/source"]).status == 0)
        let lines = try PaylogProcess.run(["export", "--store", dir.path + "/source"]).stdout.split(separator: "\n").map(String.init)
        #expect(lines.count > 5_000)
        return lines
    }

    /// Imports `lines` into a new store; returns the result and whether the store was left empty.
    static func importing(_ lines: [String], in dir: TemporaryDirectory, name: String) throws -> (PaylogProcess.Result, empty: Bool) {
        let file = dir.path + "/\(name).jsonl"
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let store = ["--store", dir.path + "/\(name)"]
        let result = try PaylogProcess.run(["import-log", file] + store)
        let log = try PaylogProcess.run(["log"] + store)
        return (result, log.status == 0 && log.stdout.isEmpty)
    }

    /// Imports `lines` into a new store and expects it refused naming `reported` on standard error, not `other`,
    /// with nothing imported.
    static func expectRefused(_ lines: [String], in dir: TemporaryDirectory, reporting reported: String, not other: String) throws {
        let (result, empty) = try importing(lines, in: dir, name: "target")
        #expect(result.status == 1)
        #expect(result.stderr.contains(reported), "\(result.stderr)")
        #expect(!result.stderr.contains(other), "\(result.stderr)")
        #expect(empty, "nothing was imported")
    }

    @Test("an altered event and an unreadable line in different batches: the one earlier in the file is reported",
          arguments: [true, false])
    func earlierFailureReported(alteredFirst: Bool) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var lines = try Self.exportLines(in: dir)
        // In consecutive batches (2,000 lines each): the later one is decoded while the earlier one is imported.
        let (altered, unreadable) = alteredFirst ? (99, 2_099) : (2_099, 99)
        lines[altered] = lines[altered].replacingOccurrences(of: "\"actor\":\"demo\"", with: "\"actor\":\"mallory\"")
        lines[unreadable] = "{not an export line"
        let alteration = "position \(altered + 1): the recomputed hash differs from the exported one"
        let badLine = "Line \(unreadable + 1) of"
        try Self.expectRefused(
            lines, in: dir, reporting: alteredFirst ? alteration : badLine, not: alteredFirst ? badLine : alteration)
    }

    @Test("of two unreadable lines in different batches, the first is reported; a whole export imports byte for byte")
    func firstOfTwoBadLines() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let original = try Self.exportLines(in: dir)
        var lines = original
        lines[4_800] = "[]"
        lines[2_100] = "{\"position\":\"two thousand\"}"
        try Self.expectRefused(lines, in: dir, reporting: "Line 2101 of", not: "Line 4801")

        let (whole, _) = try Self.importing(original, in: dir, name: "whole")
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(try PaylogProcess.run(["export", "--store", dir.path + "/whole"]).stdout == original.joined(separator: "\n") + "\n")
    }

    @Test("export encodes its chunks on both cores yet writes every event once, in log order, from any position")
    func exportKeepsTheOrder() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let lines = try Self.exportLines(in: dir)
        // Several chunks of 4,096 events, each encoded in two halves at once.
        #expect(lines.count > 4_096 + 64)
        let positions = try lines.map { try #require(try PaylogProcess.jsonObject($0)["position"] as? Int) }
        #expect(positions == Array(1...lines.count))
        let tail = try PaylogProcess.run(["export", "--from", "3000", "--store", dir.path + "/source"])
        #expect(tail.status == 0, "\(tail.stderr)")
        #expect(tail.stdout == lines[2_999...].joined(separator: "\n") + "\n")
    }

    @Test("an export that does not start at position 1 is refused for that, before a bad line later in its first batch")
    func notAWholeLog() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var lines = try Self.exportLines(in: dir)
        lines.removeFirst(4)
        lines[10] = "{not an export line"
        try Self.expectRefused(
            lines, in: dir, reporting: "The export starts at position 5, not 1: it is not a whole log.", not: "Line 11")
    }
}
