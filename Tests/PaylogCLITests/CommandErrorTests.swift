import Foundation
import TestSupport
import Testing

/// Exit statuses as Docs/cli.md gives them: 1 for what went wrong at run time (an unknown payment), 64 for a malformed
/// option value; and the analytics' day filters, which compare days as text, refuse anything but a day.
@Suite("command errors, end to end")
struct CommandErrorTests {
    @Test("an unknown stream is exit 1 with no usage text; malformed days and times are 64 naming the option")
    func exitStatuses() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        #expect(try PaylogProcess.run(["demo", "--payments", "3"] + store).status == 0)
        let unknown = try PaylogProcess.run(["stream", "nobody"] + store)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("No stream nobody") && !unknown.stderr.contains("Usage:"))
        for command in [["switch", ""], ["fail", "", "--reason", "x"], ["status", ""]] {
            let result = try PaylogProcess.run(command + store)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("The payment id is empty"), "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("damaged") && !result.stderr.contains("MDB_"))
        }
        for command in [["audit", "nobody"], ["replay", "--payment", "nobody"]] {
            let result = try PaylogProcess.run(command + store)
            #expect(result.status == 1)
            #expect(result.stderr.contains("No payment nobody is recorded in the store at \(dir.path)"), "\(result.stderr)")
            #expect(!result.stderr.contains("Record its request first"))
        }
        // A mistyped id on a callback whose URL names no provider: the id is the mistake, not the URL.
        let mistyped = try PaylogProcess.run(
            ["callback", "pay-00O1", "--url", "myshop://paylog-callback?paylog_outcome=failure&errorCode=CancelledByUser"] + store)
        #expect(mistyped.status == 1)
        #expect(mistyped.stderr.contains("No payment pay-00O1 is recorded"), "\(mistyped.stderr)")
        #expect(!mistyped.stderr.contains("neither Square data"), "\(mistyped.stderr)")
        for (arguments, mentions) in [
            (["analytics", "--from", "2026-99-99"], "--from \"2026-99-99\" is not a day"),
            (["analytics", "--to", "2026-11-21T00:00:00Z"], "--to \"2026-11-21T00:00:00Z\" is not a day"),
            (["switch", "pay-0001", "--at", "yesterday"], "--at yesterday is not an RFC 3339 time"),
            (["switch", "pay-0001", "--at", "2016-12-31T23:59:60Z"], "second 60 (a leap second)"),
            (["expire", "--now", "2016-12-31T23:59:60Z"], "second 60 (a leap second)"),
            (["replay", "--payment", "pay-0001", "--at", "2016-12-31T23:59:60.5Z"], "second 60 (a leap second)"),
            (["replay", "--payment", "pay-0001", "--at", "2026-11-21T09:40:30"], "it has no offset"),
            (["expire", "--now", "tomorrow"], "--now tomorrow is not an RFC 3339 time like 2026-11-22T09:15:02Z"),
            (["fail", "pay-0001", "--reason", " "], "--reason must say why the payment failed"),
            (["log", "--limit", "0"], "--limit must be at least 1 (got 0)"),
            (["demo", "--payments", "1000000000000"], "--payments must be from 0 to 1000000"),
            (["status", "pay-0001", "--status", "failed"], "--status filters the list of payments; with a payment id"),
            (["status", "pay-0001", "--provider", "square", "--limit", "1"], "--provider, --limit filter the list"),
            (["keys", "add", "--name", "t3", "--scopes", "bogus"], "'bogus' is not a scope"),
            (["keys", "add", "--name", "t3", "--scopes", ""], "A key needs at least one scope"),
            (["keys", "add", "--name", "two words", "--scopes", "read"], "'two words' is not a valid key name"),
        ] {
            let result = try PaylogProcess.run(arguments + store)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(mentions), "\(result.stderr)")
        }
        let negative = try PaylogProcess.run([
            "request", "--payment", "b1", "--provider", "sumup", "--amount", "-1", "--currency", "EUR", "--callback",
            "myshop://cb", "--client-id", "AFF",
        ] + store)
        #expect(negative.status == 1 && negative.stderr.contains("-1.00 EUR is not positive"), "not 'Missing value': \(negative.stderr)")
        let day = try PaylogProcess.run(["analytics", "--from", "2000-01-01", "--to", "2999-12-31", "--format", "csv"] + store)
        #expect(day.status == 0 && day.stdout.hasPrefix("day,provider,currency"))
    }

    @Test("a malformed --at is exit 64 with the command's usage line for every command that records, and creates no store")
    func malformedObservedAt() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/store"
        let request = ["request", "--payment", "pay-1", "--provider", "sumup", "--amount", "12.50", "--currency", "EUR",
                       "--callback", "myshop://done", "--client-id", "key"]
        for command in [request, ["switch", "pay-1"], ["fail", "pay-1", "--reason", "x"], ["callback", "--url", "myshop://done"]] {
            let result = try PaylogProcess.run(command + ["--at", "yesterday", "--store", store])
            #expect(result.status == 64, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("--at yesterday is not an RFC 3339 time"), "\(result.stderr)")
            #expect(result.stderr.contains("Usage: paylog \(command[0]) "), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: store), "\(command[0]) created a store")
        }
    }

    @Test("demo refuses a store holding another day; the same day again appends nothing")
    func demoOtherDay() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        #expect(try PaylogProcess.run(["demo", "--payments", "20"] + store).status == 0)
        let head = try PaylogProcess.run(["verify", "--json"] + store).stdout
        // Another seed, fewer payments (a subset of the same ids), more payments (a superset): each refused.
        for arguments in [["--payments", "20", "--seed", "3"], ["--payments", "10"], ["--payments", "21"]] {
            let other = try PaylogProcess.run(["demo"] + arguments + store)
            #expect(other.status == 1, "\(arguments)")
            #expect(other.stderr.contains("already holds another log"), "\(arguments): \(other.stderr)")
            #expect(try PaylogProcess.run(["verify", "--json"] + store).stdout == head, "\(arguments): nothing was recorded")
        }
        let same = try PaylogProcess.run(["demo", "--payments", "20"] + store)
        #expect(same.status == 0 && same.stdout.contains("0 events appended"), "\(same.stdout)")
    }
}
