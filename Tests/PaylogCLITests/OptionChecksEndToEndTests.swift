import Foundation
import Testing
import TestSupport

/// Options that could only answer nothing are refused (exit 64), naming the problem.
@Suite("option checks, end to end")
struct OptionChecksEndToEndTests {
    @Test("a limit below 1, a negative position or version, a currency that is not three letters, and analytics --from after --to exit 64 naming the problem",
          arguments: [
            (["status", "--limit", "0"], "--limit must be at least 1"),
            (["status", "--limit=-5"], "--limit must be at least 1"),
            // A negative number after the option is its value, not a missing value and an unknown option.
            (["status", "--limit", "-1"], "--limit must be at least 1 (got -1)"),
            (["log", "--limit", "-1"], "--limit must be at least 1 (got -1)"),
            (["log", "--from", "-5"], "The value '-5' is invalid for '--from <from>'"),
            (["export", "--from", "-5"], "The value '-5' is invalid for '--from <from>'"),
            (["replay", "--payment", "pay-0001", "--at", "-1"], "--at must be a version number (a whole number from 0 to"),
            (["replay", "--payment", "pay-0001", "--at", "99999999999999999999"], "from 0 to 18446744073709551615) or an RFC 3339 time"),
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
