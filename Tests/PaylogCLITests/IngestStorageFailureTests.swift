import Foundation
import TestSupport
import Testing

/// A batch that cannot be committed (a full disk) must stop the ingest: recording later lines without it would put
/// them in the log in another order than observed once the file is ingested again. This holds what the command
/// says and what a second ingest leaves; that no batch is recorded after a failed one is held deterministically by
/// `IngestHaltTests` (here a later batch rarely finds room where the failed one found none).
@Suite("ingest when the store cannot commit, end to end")
struct IngestStorageFailureTests {
    static func sumUpLines(_ index: Int) -> [String] {
        let id = "bulk-\(index)"
        let request = "sumupmerchant://pay/1.0?amount=12.50&currency=EUR&affiliate-key=AK&title=T&foreign-tx-id=ref-\(id)"
            + "&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail"
        return [
            #"{"kind":"request","payment":"\#(id)","at":"2026-11-21T09:00:00Z","url":"\#(request)","app_version":"1.88.0"}"#,
            #"{"kind":"app_switch","payment":"\#(id)","at":"2026-11-21T09:00:02Z"}"#,
            #"{"kind":"callback","at":"2026-11-21T09:00:30Z","url":"myshop://ok?smp-status=success&smp-tx-code=TX\#(index)&foreign-tx-id=ref-\#(id)"}"#,
        ]
    }

    @Test("a failed commit stops the ingest (exit 1, the line named); ingested again, the log is as if it never failed")
    func stopsAtFailedCommit() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let request = "sumupmerchant://pay/1.0?amount=5.00&currency=EUR&affiliate-key=AK&title=T&foreign-tx-id=ref-z"
            + "&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail"
        var lines = [#"{"kind":"request","payment":"z","at":"2026-11-21T08:00:00Z","url":"\#(request)","app_version":"1.88.0"}"#]
        lines += (0..<3_000).flatMap(Self.sumUpLines)
        lines.append(#"{"kind":"callback","at":"2026-11-21T08:01:00Z","url":"myshop://ok?smp-status=success&smp-tx-code=TXZ&foreign-tx-id=ref-z"}"#)
        lines += (3_000..<4_000).flatMap(Self.sumUpLines)
        lines.append(#"{"kind":"fail","payment":"z","at":"2026-11-21T08:05:00Z","reason":"operator gave up"}"#)
        let file = dir.path + "/day.jsonl"
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)

        // A file size limit (ulimit counts 512-byte blocks; SIGXFSZ ignored, so writes past it fail with EFBIG, as
        // on a full disk), well under what the whole file needs.
        let binary = try PaylogProcess.binary()
        let limited = try PaylogProcess.run([
            "-c", "trap '' XFSZ; ulimit -f 4096; exec \"$0\" ingest \"$1\" --store \"$2\"", binary, file, dir.path + "/store",
        ], executable: "/bin/sh")
        #expect(limited.status == 1, "\(limited.stdout)\(limited.stderr)")
        #expect(limited.stderr.contains("Recording stopped at line"), "\(limited.stderr)")
        #expect(limited.stderr.contains("then ingest the whole file again"), "\(limited.stderr)")
        #expect(try PaylogProcess.run(["verify", "--store", dir.path + "/store"]).status == 0)
        let halfway = try PaylogProcess.run(["stream", "z", "--json", "--store", dir.path + "/store"]).stdout
        #expect(!halfway.contains("\"Failed\""), "the fail line, after the failed batch, was recorded without it")

        // Ingested again with room, the log is the one a single healthy run records.
        let again = try PaylogProcess.run(["ingest", file, "--json", "--store", dir.path + "/store"])
        let healthy = try PaylogProcess.run(["ingest", file, "--json", "--store", dir.path + "/healthy"])
        #expect(again.status == healthy.status)
        for store in [dir.path + "/store", dir.path + "/healthy"] {
            let status = try PaylogProcess.jsonObject(try PaylogProcess.run(["status", "z", "--json", "--store", store]).stdout)
            #expect(status["status"] as? String == "completed", "\(store)")
            #expect(status["version"] as? Int == 2 && (status["flags"] as? [String]) == [], "\(store): \(status)")
        }
        let types = { (store: String) throws -> [String] in
            try PaylogProcess.run(["log", "--limit", "100000", "--json", "--store", store]).stdout
                .split(separator: "\n").map { String((try PaylogProcess.jsonObject(String($0))["stream"] as? String) ?? "") }
        }
        #expect(try types(dir.path + "/store") == types(dir.path + "/healthy"), "the same streams in the same order")
    }

    @Test("a reconcile stopped by a failed commit says to reconcile the file again, which records the rest")
    func reconcileStopsAtFailedCommit() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/store"
        let count = 2_000
        let day = dir.path + "/day.jsonl"
        try (0..<count).flatMap(Self.sumUpLines).joined(separator: "\n").write(toFile: day, atomically: true, encoding: .utf8)
        #expect(try PaylogProcess.run(["ingest", day, "--store", store]).status == 0)
        let report = dir.path + "/report.jsonl"
        try (0..<count).map { index in
            #"{"at":"2026-11-22T08:00:00Z","provider":"sumup","transaction_id":"TX\#(index)","foreign_tx_id":"ref-bulk-\#(index)","amount_minor":1250,"currency":"EUR"}"#
        }.joined(separator: "\n").write(toFile: report, atomically: true, encoding: .utf8)
        var file = stat()
        #expect(stat(store + "/data.mdb", &file) == 0)
        // Room for a few hundred more events, not for the whole report.
        let blocks = Int(file.st_size) / 512 + 128
        let limited = try PaylogProcess.run([
            "-c", "trap '' XFSZ; ulimit -f \(blocks); exec \"$0\" reconcile \"$1\" --store \"$2\"", try PaylogProcess.binary(), report, store,
        ], executable: "/bin/sh")
        #expect(limited.status == 1, "\(limited.stdout)\(limited.stderr)")
        #expect(limited.stderr.contains("then reconcile the whole file again"), "\(limited.stderr)")
        let again = try PaylogProcess.run(["reconcile", report, "--json", "--store", store])
        #expect(again.status == 0, "\(again.stderr)")
        let reconciled = try PaylogProcess.run(["status", "--status", "reconciled", "--json", "--store", store]).stdout
        #expect(reconciled.split(separator: "\n").count == count, "every line recorded once the disk had room")
    }
}
