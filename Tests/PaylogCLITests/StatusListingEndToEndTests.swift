import Foundation
import TestSupport
import Testing

/// `paylog status --json` without a payment lists page by page (`StatusCommand.jsonPage`, 1,000 a read transaction):
/// the pages must join into the one listing. Docs/cli.md, *status*.
@Suite("paylog status --json lists every payment once, in id order, across its pages")
struct StatusListingEndToEndTests {
    @Test("the JSON listing of 1,500 payments matches the table's, and limits and filters cut it as one listing")
    func pagesJoin() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path + "/store"]
        #expect(try PaylogProcess.run(["demo", "--payments", "1500"] + store).status == 0)
        let table = try PaylogProcess.run(["status"] + store)
        let count = try #require(table.stdout.firstMatch(of: /(\d+) payment\(s\)/).flatMap { Int($0.1) })
        #expect(count >= 1_500)

        func ids(_ arguments: [String]) throws -> [String] {
            let run = try PaylogProcess.run(["status", "--json"] + arguments + store)
            #expect(run.status == 0, "\(run.stderr)")
            return try run.stdout.split(separator: "\n").map { try #require(try PaylogProcess.jsonObject(String($0))["payment"] as? String) }
        }
        let all = try ids([])
        #expect(all.count == count)
        #expect(all == all.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(Set(all).count == all.count)
        for limit in [1, 999, 1_000, 1_001, 2_000] {
            #expect(try ids(["--limit", "\(limit)"]) == Array(all.prefix(limit)), "--limit \(limit)")
        }
        let failed = try ids(["--status", "failed"])
        #expect(!failed.isEmpty)
        let failedLines = try PaylogProcess.run(["status", "--json", "--status", "failed"] + store).stdout.split(separator: "\n")
        #expect(try failedLines.allSatisfy { try PaylogProcess.jsonObject(String($0))["status"] as? String == "failed" })
        #expect(try ids(["--status", "failed", "--limit", "3"]) == Array(failed.prefix(3)))
    }
}
