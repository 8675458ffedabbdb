import Foundation
import TestSupport
import Testing

/// `--read-only`: the reading commands answer as usual from a store they do not write a byte to.
@Suite("--read-only, end to end")
struct ReadOnlyEndToEndTests {
    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test("verify, status, audit, replay --payment, log, stream, analytics, export and backup read; data.mdb is unchanged")
    func readingCommands() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/store"
        #expect(try PaylogProcess.run(["demo", "--payments", "12", "--store", store]).status == 0)
        // Read-write, even reading writes (the open's transaction): read the expected answer before the bytes.
        let writable = try PaylogProcess.run(["status", "pay-0003", "--json", "--store", store])
        let before = try Self.bytes(store + "/data.mdb")
        let readOnly = ["--store", store, "--read-only"]

        let verified = try PaylogProcess.run(["verify", "--json"] + readOnly)
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(try PaylogProcess.jsonObject(verified.stdout)["chain_ok"] as? Bool == true)
        let status = try PaylogProcess.run(["status", "pay-0003", "--json"] + readOnly)
        #expect(status.status == 0 && status.stdout == writable.stdout, "\(status.stderr)")
        let audit = try PaylogProcess.run(["audit", "pay-0003"] + readOnly)
        #expect(audit.status == 0 && audit.stdout.contains("Requested"), "\(audit.stderr)")
        let replay = try PaylogProcess.run(["replay", "--payment", "pay-0003", "--at", "1"] + readOnly)
        #expect(replay.status == 0 && replay.stdout.contains("1 event(s)"), "\(replay.stdout)\(replay.stderr)")
        for command in [["log"], ["stream", "pay-0003"], ["analytics"]] {
            let result = try PaylogProcess.run(command + readOnly)
            #expect(result.status == 0 && !result.stdout.isEmpty, "\(command): \(result.stderr)")
        }
        let export = dir.path + "/export.jsonl"
        #expect(try PaylogProcess.run(["export", "-o", export] + readOnly).status == 0)
        let backup = try PaylogProcess.run(["backup", dir.path + "/copy"] + readOnly)
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(try PaylogProcess.run(["verify", "--store", dir.path + "/copy"]).status == 0)

        // Rebuilding every view would write: refused before the store is opened.
        let rebuild = try PaylogProcess.run(["replay"] + readOnly)
        #expect(rebuild.status == 64 && rebuild.stderr.contains("--payment"), "\(rebuild.stderr)")

        #expect(try Self.bytes(store + "/data.mdb") == before, "a --read-only command changed data.mdb")
        #expect(try PaylogProcess.run(["export", "--store", store]).stdout == String(contentsOfFile: export, encoding: .utf8))
        // Without --read-only the same open writes: the comparison above can fail.
        #expect(try Self.bytes(store + "/data.mdb") != before)
    }

    @Test("a store in an older log format is refused by every reading command, saying to open a copy; the copy reads")
    func olderFormat() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/store"
        try MDBDump(try GoldenLogTests.file("demo-40.format-1.mdb-dump")).load(into: store)
        let before = try Self.bytes(store + "/data.mdb")
        let readOnly = ["--store", store, "--read-only"]
        for command in [["verify"], ["export"], ["audit", "pay-0011"], ["log"], ["stream", "pay-0011"],
                        ["replay", "--payment", "pay-0011"], ["status"], ["analytics"], ["backup", dir.path + "/backup"]] {
            let result = try PaylogProcess.run(command + readOnly)
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("log is in format 1") && result.stderr.contains("not even the log"), "\(result.stderr)")
            #expect(result.stderr.contains("open the copy without --read-only"), "\(result.stderr)")
            #expect(!result.stderr.contains("can still be read"), "\(command): \(result.stderr)")
        }
        #expect(try Self.bytes(store + "/data.mdb") == before, "a --read-only command changed data.mdb")

        // What the message advises: a copy opened without --read-only is migrated, and then reads either way.
        try FileManager.default.copyItem(atPath: store, toPath: dir.path + "/copy")
        let copy = ["--store", dir.path + "/copy"]
        #expect(try PaylogProcess.run(["verify"] + copy).status == 0)
        let verified = try PaylogProcess.run(["verify"] + copy + ["--read-only"])
        #expect(verified.status == 0 && verified.stdout.contains("chain intact: 161 events"), "\(verified.stderr)")
        #expect(try Self.bytes(store + "/data.mdb") == before, "the original is left as it was")
    }
}
