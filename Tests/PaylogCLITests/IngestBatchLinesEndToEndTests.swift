import Foundation
import TestSupport
import Testing

/// `paylog ingest --batch-lines`: how many lines a write transaction records at most. Docs/cli.md, *paylog ingest*.
@Suite("paylog ingest --batch-lines, end to end")
struct IngestBatchLinesEndToEndTests {
    /// A request line for payment `payment`.
    static func request(_ payment: String) -> String {
        #"{"kind":"request","payment":"\#(payment)","at":"2026-11-21T09:00:00Z","url":"sumupmerchant://pay/1.0?amount=12.50&currency=EUR&affiliate-key=AK&foreign-tx-id=ref-\#(payment)&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail","app_version":"1.88.0"}"#
    }

    /// `paylog ingest -` on `store` with `arguments`, reading a pipe this test writes to and keeps open.
    struct LiveIngest {
        let process = Process()
        let input = Pipe()
        let output = Pipe()

        init(store: String, arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: try PaylogProcess.binary())
            process.arguments = ["ingest", "-", "--json", "--store", store] + arguments
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

        /// Closes the pipe (the end of input) and waits for the exit; returns the status and the `--json` report.
        func finish() throws -> (status: Int32, report: [String: Any]) {
            try input.fileHandleForWriting.close()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, try PaylogProcess.jsonObject(String(decoding: data, as: UTF8.self)))
        }
    }

    /// The payments `paylog log` shows in `store` now (another process, reading beside the ingest).
    static func recorded(_ store: String) throws -> String {
        try PaylogProcess.run(["log", "--store", store]).stdout
    }

    /// Waits up to 20 s for `paylog log` to show `payment`; true when it did.
    static func waitFor(_ payment: String, in store: String) throws -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if try recorded(store).contains(" \(payment) v1 ") { return true }
            usleep(50_000)
        }
        return false
    }

    @Test("with --batch-lines 1 each line of a live pipe is recorded as it is read, before the input ends")
    func eachLineAsRead() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/store"
        let ingest = try LiveIngest(store: store, arguments: ["--batch-lines", "1"])
        ingest.send(Self.request("live-1"))
        #expect(try Self.waitFor("live-1", in: store), "the first line was not recorded while the pipe stayed open")
        ingest.send(Self.request("live-2"))
        #expect(try Self.waitFor("live-2", in: store), "the second line was not recorded while the pipe stayed open")
        let (status, report) = try ingest.finish()
        #expect(status == 0)
        #expect(report["accepted"] as? Int == 2)
        #expect(report["events_appended"] as? Int == 2)
    }

    @Test("by default a live pipe's lines wait for a batch of 512 or the end of input")
    func defaultWaitsForABatch() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/store"
        let ingest = try LiveIngest(store: store, arguments: [])
        ingest.send(Self.request("held-1"))
        ingest.send(Self.request("held-2"))
        // Nothing can be recorded before 512 lines or the end of input, however long this waits; a second is
        // ample for the process to read both lines.
        usleep(1_000_000)
        #expect(try !Self.recorded(store).contains("held-"))
        let (status, report) = try ingest.finish()
        #expect(status == 0)
        #expect(report["accepted"] as? Int == 2)
        #expect(try Self.recorded(store).contains(" held-2 v1 "))
    }

    @Test("a large file records the same with any batch size", arguments: ["1", "7", "65536"])
    func sameLog(batchLines: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.path + "/day.jsonl"
        try IngestEndToEndTests.mixedFile().write(toFile: file, atomically: true, encoding: .utf8)
        var logs: [String] = []
        for (name, extra) in [("default", [String]()), ("batched", ["--batch-lines", batchLines])] {
            let store = dir.path + "/" + name
            let run = try PaylogProcess.run(["ingest", file, "--json", "--store", store] + extra)
            #expect(run.status == 2, "the file has rejected lines: \(run.stderr)")
            #expect(try PaylogProcess.jsonObject(run.stdout)["events_appended"] as? Int == 11)
            let log = try PaylogProcess.run(["export", "--store", store])
            #expect(log.status == 0, "\(log.stderr)")
            // Without what differs between any two stores: the commit times, and the chain hashes over them.
            let events = try log.stdout.split(separator: "\n").map { line in
                var event = try PaylogProcess.jsonObject(String(line))
                for key in ["hash", "recorded_at", "recorded_at_us"] { event.removeValue(forKey: key) }
                return String(decoding: try JSONSerialization.data(withJSONObject: event, options: .sortedKeys), as: UTF8.self)
            }
            logs.append(events.joined(separator: "\n"))
        }
        #expect(logs[0].split(separator: "\n").count == 11)
        #expect(logs[0] == logs[1])
    }

    @Test("--batch-lines outside 1…65536 is refused before anything is opened", arguments: ["0", "-3", "65537"])
    func refused(value: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let run = try PaylogProcess.run(["ingest", "-", "--batch-lines=\(value)", "--store", dir.path + "/store"], stdin: Self.request("x"))
        #expect(run.status == 64)
        #expect(run.stderr.contains("--batch-lines must be between 1 and 65536 lines; got \(value)."), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/store"), "nothing was created")
    }
}
