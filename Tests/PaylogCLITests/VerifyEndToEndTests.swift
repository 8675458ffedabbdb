import Foundation
import LMDBKit
import TestSupport
import Testing

@Suite("verify, end to end")
struct VerifyEndToEndTests {
    @Test("paylog verify finds one flipped byte in the stored log: exit 3 and the position; export exits 3 too")
    func tamperedByte() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        #expect(try PaylogProcess.run(["demo", "--payments", "12"] + store).status == 0)
        let clean = try PaylogProcess.run(["verify", "--json"] + store)
        #expect(clean.status == 0)
        #expect(try PaylogProcess.jsonObject(clean.stdout)["chain_ok"] as? Bool == true)

        let env = try Environment(path: dir.path)
        let events = try env.openDatabase("events", create: false)
        let key = withUnsafeBytes(of: UInt64(17).bigEndian) { Array($0) }
        try env.write { txn in
            var value = try #require(try txn.value(for: key, in: events))
            value[value.count / 2] ^= 0x20
            try txn.put(value, for: key, in: events)
        }
        env.close()

        let broken = try PaylogProcess.run(["verify", "--json"] + store)
        #expect(broken.status == 3)
        let report = try PaylogProcess.jsonObject(broken.stdout)
        #expect(report["chain_ok"] as? Bool == false)
        #expect(report["first_broken_position"] as? Int == 17)
        #expect(report["events_checked"] as? Int == 16)

        // An export of the damaged store writes every event as stored, but exits 3 naming the break, as verify does,
        // and leaves the file it was asked to write (last night's good export) as it was.
        let exportDirectory = TemporaryDirectory()
        defer { exportDirectory.remove() }
        let file = exportDirectory.path + "/export.jsonl"
        try "last night's export\n".write(toFile: file, atomically: false, encoding: .utf8)
        let exported = try PaylogProcess.run(["export", "-o", file] + store)
        #expect(exported.status == 3)
        #expect(exported.stderr.contains("the store's chain is broken at position 17"), "\(exported.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "last night's export\n")
        let written = try FileManager.default.contentsOfDirectory(atPath: exportDirectory.path).filter { $0.hasPrefix("export.jsonl.chain-broken-") }
        #expect(written.count == 1 && exported.stderr.contains(written.first ?? "?"), "\(written) \(exported.stderr)")
        let lines = try String(contentsOfFile: exportDirectory.path + "/" + (written.first ?? ""), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == report["last_position"] as? Int)
        let toStandardOutput = try PaylogProcess.run(["export"] + store)
        #expect(toStandardOutput.status == 3 && toStandardOutput.stdout.split(separator: "\n").count == lines.count)
    }

    @Test("a head far past the log's end (events removed, or the head edited) is reported by verify, replay and rebuild-views, which end")
    func headPastTheLog() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        #expect(try PaylogProcess.run(["demo", "--payments", "12"] + store).status == 0)
        try StoreTampering.setHeadPosition(of: dir.path, to: 1_000_000)
        // Each opened the store by chasing the head, for ever; `timeout` ends one that still does (status 124).
        for command in [["verify", "--json"], ["replay", "--json"], ["rebuild-views"], ["status", "pay-0001"]] {
            let result = try PaylogProcess.run(["60", try PaylogProcess.binary()] + command + store, executable: "/usr/bin/timeout")
            #expect(result.status != 124, "\(command) did not end")
            if command[0] == "verify" || command[0] == "replay" {
                #expect(result.status == 3, "\(command): \(result.stderr)")
                #expect(result.stdout.contains("head says 1000000"), "\(command): \(result.stdout)")
            } else if command[0] == "rebuild-views" {
                // Not from a broken log: the views stay as they were.
                #expect(result.status == 3 && result.stderr.contains("The views were not rebuilt"), "\(result.stderr)")
            } else {
                #expect(result.status == 0, "\(command): \(result.stderr)")
            }
        }
        // An append would leave positions the head names as a gap: refused, naming both ends, and nothing written.
        let before = try PaylogProcess.run(["export"] + store).stdout
        let switched = try PaylogProcess.run(["switch", "pay-0001", "--at", "2026-11-21T12:00:00Z"] + store)
        #expect(switched.status == 1)
        #expect(switched.stderr.contains("the chain head says the log ends at position 1000000, but its last event is at position"),
                "\(switched.stderr)")
        #expect(try PaylogProcess.run(["export"] + store).stdout == before)
    }
}
