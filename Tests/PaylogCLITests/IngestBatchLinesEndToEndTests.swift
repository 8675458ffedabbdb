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
    final class LiveIngest {
        let process = ChildProcess()
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()

        init(store: String, arguments: [String]) throws {
            // A child that exited early (an option refused, a crash) must fail the test, not kill the test process
            // with SIGPIPE when the next line is written: ignored, the write fails with EPIPE instead.
            signal(SIGPIPE, SIG_IGN)
            process.executableURL = URL(fileURLWithPath: try PaylogProcess.binary())
            process.arguments = ["ingest", "-", "--json", "--store", store] + arguments
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            try process.run()
        }

        /// Stops the child if it is still running (a test that failed part-way).
        deinit { if process.isRunning { process.terminate() } }

        func send(_ line: String) throws { try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8)) }

        /// Closes the pipe (the end of input) and waits up to 60 s for the exit; returns the status, the `--json`
        /// report and standard error, or nil when the child did not exit (it is then stopped).
        func finish() throws -> (status: Int32, report: [String: Any], stderr: String)? {
            try input.fileHandleForWriting.close()
            let deadline = Date().addingTimeInterval(60)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            guard !process.isRunning else {
                process.terminate()
                return nil
            }
            let data = output.fileHandleForReading.readDataToEndOfFile()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return (process.terminationStatus, try PaylogProcess.jsonObject(String(decoding: data, as: UTF8.self)), stderr)
        }
    }

    /// `paylog log --read-only` of `store` now, from another process reading beside the ingest; nil while it fails
    /// (the store not created yet).
    static func log(_ store: String) throws -> String? {
        let run = try PaylogProcess.run(["log", "--read-only", "--store", store])
        return run.status == 0 ? run.stdout : nil
    }

    /// Waits up to 20 s for `paylog log` to succeed and, when given, to show `payment`; returns the last log read.
    static func waitForLog(of store: String, showing payment: String? = nil) throws -> String? {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let log = try Self.log(store)
            if let log, payment.map({ log.contains(" \($0) v1 ") }) ?? true { return log }
            if Date() >= deadline { return log }
            usleep(50_000)
        }
    }

    @Test("with --batch-lines 1 each line of a live pipe is recorded as it is read, before the input ends")
    func eachLineAsRead() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/store"
        let ingest = try LiveIngest(store: store, arguments: ["--batch-lines", "1"])
        try ingest.send(Self.request("live-1"))
        #expect(try Self.waitForLog(of: store, showing: "live-1")?.contains(" live-1 v1 ") == true,
                "the first line was not recorded while the pipe stayed open")
        try ingest.send(Self.request("live-2"))
        #expect(try Self.waitForLog(of: store, showing: "live-2")?.contains(" live-2 v1 ") == true,
                "the second line was not recorded while the pipe stayed open")
        let finished = try #require(try ingest.finish(), "paylog ingest did not exit within 60 s of the end of input")
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(finished.report["accepted"] as? Int == 2)
        #expect(finished.report["events_appended"] as? Int == 2)
    }

    @Test("by default a live pipe's lines wait for a batch of 512 or the end of input")
    func defaultWaitsForABatch() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/store"
        let ingest = try LiveIngest(store: store, arguments: [])
        // The ingest creates the store before it reads a line: once `paylog log` reads it, the ingest is reading.
        let empty = try #require(try Self.waitForLog(of: store), "the ingest did not create its store within 20 s")
        #expect(empty.isEmpty)
        try ingest.send(Self.request("held-1"))
        try ingest.send(Self.request("held-2"))
        // Nothing can be recorded before 512 lines or the end of input, however long this waits; a second is
        // ample for the process to read both lines.
        usleep(1_000_000)
        let meanwhile = try #require(try Self.log(store), "paylog log failed beside the ingest")
        #expect(!meanwhile.contains("held-"))
        let finished = try #require(try ingest.finish(), "paylog ingest did not exit within 60 s of the end of input")
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(finished.report["accepted"] as? Int == 2)
        #expect(try Self.log(store)?.contains(" held-2 v1 ") == true)
    }

    /// 600 SumUp payments (request, app switch, callback each) and, in the middle, the mixed file's good and bad
    /// lines.
    static func day() -> String {
        var lines: [String] = []
        for number in 0..<600 {
            let payment = "day-\(number)"
            lines.append(Self.request(payment))
            lines.append(#"{"kind":"app_switch","payment":"\#(payment)","at":"2026-11-21T09:00:01Z"}"#)
            lines.append(#"{"kind":"callback","at":"2026-11-21T09:00:30Z","url":"myshop://ok?smp-status=success&smp-tx-code=TX\#(number)&foreign-tx-id=ref-\#(payment)"}"#)
            if number == 300 { lines.append(IngestEndToEndTests.mixedFile()) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("any --batch-lines records the same log and report as the default", arguments: ["1", "7", "1024"])
    func sameLog(batchLines: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.path + "/day.jsonl"
        try Self.day().write(toFile: file, atomically: true, encoding: .utf8)
        var results: [(report: String, log: String)] = []
        for (name, extra) in [("default", [String]()), ("batched", ["--batch-lines", batchLines])] {
            let store = dir.path + "/" + name
            let run = try PaylogProcess.run(["ingest", file, "--json", "--store", store] + extra)
            #expect(run.status == 2, "the file has rejected lines: \(run.stderr)")
            let log = try PaylogProcess.run(["export", "--store", store])
            #expect(log.status == 0, "\(log.stderr)")
            // Without what differs between any two stores: the commit times, and the chain hashes over them.
            let events = try log.stdout.split(separator: "\n").map { line in
                var event = try PaylogProcess.jsonObject(String(line))
                for key in ["hash", "recorded_at", "recorded_at_us"] { event.removeValue(forKey: key) }
                return String(decoding: try JSONSerialization.data(withJSONObject: event, options: .sortedKeys), as: UTF8.self)
            }
            results.append((run.stdout, events.joined(separator: "\n")))
        }
        // 1,800 events of the 600 payments and the mixed file's 11.
        #expect(results[0].log.split(separator: "\n").count == 1_811)
        #expect(results[0].report.contains(#""rejected":5"#), "\(results[0].report)")
        #expect(results[0].log == results[1].log)
        #expect(results[0].report == results[1].report)
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
