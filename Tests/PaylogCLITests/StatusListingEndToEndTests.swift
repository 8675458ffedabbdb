import Foundation
import TestSupport
import Testing

/// `paylog status --json` without a payment lists page by page (`StatusCommand.jsonPage`, 1,000 a read transaction):
/// the pages must join into the one listing. Docs/cli.md, *status*.
@Suite("paylog status --json lists every payment once, in id order, across its pages")
struct StatusListingEndToEndTests {
    @Test("the JSON listing of 3,100 payments matches the table's, and limits and filters cut it as one listing")
    func pagesJoin() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path + "/store"]
        #expect(try PaylogProcess.run(["demo", "--payments", "3100"] + store).status == 0)
        let all = try PaylogProcess.run(["status"] + store)
        let count = try #require(all.stdout.firstMatch(of: /(\d+) payment\(s\)/).flatMap { Int($0.1) })
        #expect(count >= 3_100)

        func ids(_ arguments: [String]) throws -> [String] {
            let run = try PaylogProcess.run(["status", "--json"] + arguments + store)
            #expect(run.status == 0, "\(run.stderr)")
            return try run.stdout.split(separator: "\n").map { try #require(try PaylogProcess.jsonObject(String($0))["payment"] as? String) }
        }
        let listed = try ids([])
        #expect(listed.count == count)
        #expect(listed == listed.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(Set(listed).count == listed.count)
        for limit in [1, 999, 1_000, 1_001, 2_000, 3_000] {
            #expect(try ids(["--limit", "\(limit)"]) == Array(listed.prefix(limit)), "--limit \(limit)")
        }
        // A filter over more than one page: the pages' `after` cursor is the last matching payment.
        let square = try ids(["--provider", "square"])
        #expect(square.count > 1_000, "the filter must span pages")
        let squareLines = try PaylogProcess.run(["status", "--json", "--provider", "square"] + store).stdout.split(separator: "\n")
        #expect(try squareLines.allSatisfy { try PaylogProcess.jsonObject(String($0))["provider"] as? String == "square" })
        let table = try PaylogProcess.run(["status", "--provider", "square"] + store).stdout
        #expect(table.contains("\(square.count) payment(s)"), "the table lists as many")
        #expect(try ids(["--provider", "square", "--limit", "1001"]) == Array(square.prefix(1_001)))

        // The table's count says whether the listing stopped at --limit or at the last match.
        func summary(_ limit: Int) throws -> String {
            let run = try PaylogProcess.run(["status", "--provider", "square", "--limit", "\(limit)"] + store)
            #expect(run.status == 0, "\(run.stderr)")
            return String(try #require(run.stdout.split(separator: "\n").last))
        }
        #expect(try summary(3) == "3 payment(s) shown; more match (raise --limit, or drop it, to list them all)")
        #expect(try summary(square.count - 1).hasPrefix("\(square.count - 1) payment(s) shown; more match"))
        #expect(try summary(square.count) == "\(square.count) payment(s)")
        #expect(try summary(Int.max) == "\(square.count) payment(s)")
    }
}
