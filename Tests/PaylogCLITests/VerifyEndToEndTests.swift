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

        // An export of the damaged store writes every event as stored, but exits 3 naming the break, as verify does.
        let exported = try PaylogProcess.run(["export", "-o", dir.path + "-export.jsonl"] + store)
        defer { try? FileManager.default.removeItem(atPath: dir.path + "-export.jsonl") }
        #expect(exported.status == 3)
        #expect(exported.stderr.contains("the store's chain is broken at position 17"), "\(exported.stderr)")
        let lines = try String(contentsOfFile: dir.path + "-export.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == report["last_position"] as? Int)
        let toStandardOutput = try PaylogProcess.run(["export"] + store)
        #expect(toStandardOutput.status == 3 && toStandardOutput.stdout.split(separator: "\n").count == lines.count)
    }
}
