import Foundation
import TestSupport
import Testing

/// Bytes that are not UTF-8 must never be recorded repaired: Swift's lossy decoding turns each into U+FFFD, which
/// alters the evidence and makes two different callbacks look like one.
@Suite("input that is not UTF-8, end to end")
struct UndecodableInputTests {
    static let request = [
        "request", "--payment", "p1", "--provider", "sumup", "--amount", "10.00", "--currency", "EUR", "--callback",
        "myshop://cb", "--client-id", "k", "--app-version", "1.88.0", "--at", "2026-11-21T09:00:00Z",
    ]

    @Test("ingest rejects a line that is not UTF-8 by number and byte, records the others, and keeps two different callbacks apart")
    func ingestLine() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path + "/store"]
        #expect(try PaylogProcess.run(Self.request + store).status == 0)
        func callback(_ second: Int, _ last: UInt8) -> [UInt8] {
            Array(#"{"kind":"callback","at":"2026-11-21T09:00:\#(second)Z","url":"myshop://cb?paylog_payment=p1&smp-status=failed&smp-message=no-"#.utf8)
                + [last] + Array(#""}"#.utf8)
        }
        let lines = callback(31, 0xE4) + [0x0A] + callback(32, 0xFC) + [0x0A]
            + Array(#"{"kind":"app_switch","payment":"p1","at":"2026-11-21T09:00:03.1234567Z"}"#.utf8) + [0x0A]
        try Data(lines).write(to: URL(fileURLWithPath: dir.path + "/lines.jsonl"))
        let result = try PaylogProcess.run(["ingest", dir.path + "/lines.jsonl", "--json"] + store)
        #expect(result.status == 2)
        let report = try PaylogProcess.jsonObject(result.stdout)
        #expect(report["lines"] as? Int == 3)
        #expect(report["accepted"] as? Int == 1, "the app switch with 7 fractional digits is recorded")
        let errors = report["errors"] as? [[String: Any]] ?? []
        #expect(errors.map { $0["line"] as? Int } == [1, 2])
        let message = errors.first?["message"] as? String
        #expect(message?.contains("not valid UTF-8 (byte 0xE4 at column 118)") == true, "\(errors)")
        let exported = try PaylogProcess.run(["export"] + store).stdout
        #expect(exported.contains("\"type\":\"Requested\"") && !exported.contains("CallbackReceived"), "no callback was recorded")
        #expect(try PaylogProcess.run(["stream", "p1", "--json"] + store).stdout.contains("AppSwitched"))
    }

    @Test("an argument that is not UTF-8 stops the command before anything is recorded")
    func argument() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/store"
        #expect(try PaylogProcess.run(Self.request + ["--store", store]).status == 0)
        let binary = try PaylogProcess.binary()
        let script = #""$0" callback p1 --store "$1" --url "$(printf 'myshop://cb?paylog_payment=p1&smp-status=failed&x=\344')""#
        let result = try PaylogProcess.run(["-c", script, binary, store], executable: "/bin/bash")
        #expect(result.status == 1)
        #expect(result.stderr.contains("Argument 6") && result.stderr.contains("is not valid UTF-8"), "\(result.stderr)")
        let versions = try PaylogProcess.run(["status", "p1", "--json", "--store", store])
        #expect(try PaylogProcess.jsonObject(versions.stdout)["version"] as? Int == 1, "only the request is recorded")
    }

    @Test("a directory given as the file of lines is an error, not an empty file")
    func directoryInput() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let result = try PaylogProcess.run(["ingest", dir.path, "--store", dir.path + "/store"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(dir.path) is a directory, not a file of lines"))
    }
}
