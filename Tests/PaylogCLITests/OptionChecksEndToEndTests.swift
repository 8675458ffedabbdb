import Foundation
import Testing
import TestSupport

/// Options that could only answer nothing are refused (exit 64), naming the problem.
@Suite("option checks, end to end")
struct OptionChecksEndToEndTests {
    @Test("status --limit below 1, a currency that is not three letters, and analytics --from after --to exit 64 naming the problem",
          arguments: [
            (["status", "--limit", "0"], "--limit must be at least 1"),
            (["status", "--limit=-5"], "--limit must be at least 1"),
            (["status", "--currency", "EURO"], "three-letter ISO 4217 code"),
            (["status", "--currency", "E1R"], "three-letter ISO 4217 code"),
            (["analytics", "--from", "2026-11-22", "--to", "2026-11-21"], "--from 2026-11-22 is after --to 2026-11-21"),
          ])
    func refusedOptions(arguments: [String], reason: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(try PaylogProcess.run(["demo", "--payments", "3", "--store", dir.path]).status == 0)
        let result = try PaylogProcess.run(arguments + ["--store", dir.path])
        #expect(result.status == 64, "\(result.stdout)")
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        // The same options within range still answer.
        #expect(try PaylogProcess.run(["status", "--currency", "eur", "--limit", "1", "--store", dir.path]).status == 0)
    }
}
