import Foundation
import LMDBKit
@testable import PaylogStore
import TestSupport
import Testing

/// A damaged data file must give an error naming the damage, never a crash: LMDB does not check its own pages, so a
/// short key was read past its end (a trap in debug builds), and a cut-off file was mapped past its end (SIGBUS).
@Suite("damaged stores, end to end")
struct DamagedStoreTests {
    @Test("an events key of the wrong size: verify, export and log fail with exit 1 naming it, and do not crash")
    func shortKey() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        #expect(try PaylogProcess.run(["demo", "--payments", "40"] + store).status == 0)
        // The leaf node of event 20: flags (2 bytes), key size 8 (2 bytes, little-endian), then the key.
        let file = URL(fileURLWithPath: dir.path + "/data.mdb")
        var data = try Data(contentsOf: file)
        let node = Data([0, 0, 8, 0]) + withUnsafeBytes(of: UInt64(20).bigEndian) { Data($0) }
        let found = try #require(data.range(of: node), "event 20's leaf node")
        data[found.lowerBound + 2] = 4
        try data.write(to: file)
        for command in [["verify"], ["export"], ["log", "--limit", "1000"]] {
            let result = try PaylogProcess.run(command + store)
            #expect(result.status == 1, "\(command): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("The log's `events` database is damaged (a key of 4 bytes"), "\(result.stderr)")
        }
    }

    @Test("a data file cut off before its last page is refused at open (exit 1), not mapped and crashed on")
    func truncated() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        #expect(try PaylogProcess.run(["demo", "--payments", "40"] + store).status == 0)
        #expect(truncate(dir.path + "/data.mdb", 8_192) == 0)
        for command in [["verify"], ["status"], ["ingest", "/dev/null"]] {
            let result = try PaylogProcess.run(command + store)
            #expect(result.status == 1, "\(command): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("data.mdb is 8192 bytes, but its last page ends at byte"), "\(result.stderr)")
            #expect(result.stderr.contains("the file is truncated"))
        }
        var status = stat()
        #expect(stat(dir.path + "/data.mdb", &status) == 0 && status.st_size == 8_192, "nothing was written to it")
    }

    @Test("a damaged status-view row: commands name the damaged view and rebuild-views, which repairs it, runs")
    func damagedViewRow() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        #expect(try PaylogProcess.run(["demo", "--payments", "5"] + store).status == 0)
        let before = try PaylogProcess.run(["status", "--json"] + store).stdout
        // pay-0002's row made unreadable, and the view's checkpoint moved back so that opening the store must
        // catch the view up through that row again.
        let env = try Environment(path: dir.path)
        let payments = try env.openDatabase("payments", create: false)
        try env.write { txn in
            try txn.put([0xFF, 0xFF], for: Array("pay-0002".utf8), in: payments)
        }
        env.close()
        let expire = try PaylogProcess.run(["expire"] + store)
        #expect(expire.status == 1)
        #expect(expire.stderr.contains("The payments view is damaged") && expire.stderr.contains("paylog rebuild-views"),
                "\(expire.stderr)")
        #expect(!expire.stderr.contains("closed"), "\(expire.stderr)")

        let env2 = try Environment(path: dir.path)
        let meta = try env2.openDatabase("meta", create: false)
        try env2.write { txn in
            let key = Array("projection:payments".utf8)
            var checkpoint = try #require(try txn.value(for: key, in: meta))
            // version · position · generation, 8 bytes each, big-endian: position 1.
            checkpoint.replaceSubrange(8..<16, with: [0, 0, 0, 0, 0, 0, 0, 1])
            try txn.put(checkpoint, for: key, in: meta)
        }
        env2.close()
        let verify = try PaylogProcess.run(["verify"] + store)
        #expect(verify.status == 1)
        #expect(verify.stderr.contains("The payments view is damaged") && verify.stderr.contains("paylog rebuild-views"),
                "\(verify.stderr)")
        #expect(!verify.stderr.contains("code -1"), "\(verify.stderr)")

        let rebuilt = try PaylogProcess.run(["rebuild-views"] + store)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(try PaylogProcess.run(["status", "--json"] + store).stdout == before)
        let replay = try PaylogProcess.jsonObject(try PaylogProcess.run(["replay", "--json"] + store).stdout)
        #expect(replay["projections_match"] as? Bool == true)
    }

    @Test("a chain head of the wrong length: verify and replay report a broken chain (exit 3), other commands exit 1")
    func shortHead() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        #expect(try PaylogProcess.run(["demo", "--payments", "5"] + store).status == 0)
        let env = try Environment(path: dir.path)
        let meta = try env.openDatabase("meta", create: false)
        try env.write { txn in
            let head = try #require(try txn.value(for: Array("head".utf8), in: meta))
            try txn.put(Array(head.dropLast()), for: Array("head".utf8), in: meta)
        }
        env.close()
        let verify = try PaylogProcess.run(["verify"] + store)
        #expect(verify.status == 3, "\(verify.stderr)")
        #expect(verify.stdout.contains("CHAIN BROKEN: the stored chain head (`meta`, `head`) is 39 bytes, not 40"), "\(verify.stdout)")
        let json = try PaylogProcess.jsonObject(try PaylogProcess.run(["verify", "--json", "--read-only"] + store).stdout)
        #expect(json["chain_ok"] as? Bool == false)
        #expect((json["problem"] as? String)?.contains("is 39 bytes, not 40") == true, "\(json)")
        let replay = try PaylogProcess.run(["replay"] + store)
        #expect(replay.status == 3 && replay.stderr.contains("its `head` entry is 39 bytes, not 40"), "\(replay.stderr)")
        #expect(replay.stdout.hasPrefix("hash chain: BROKEN: the stored chain head"), "\(replay.stdout)")
        let replayJSON = try PaylogProcess.run(["replay", "--json"] + store)
        let report = try PaylogProcess.jsonObject(replayJSON.stdout)
        #expect(replayJSON.status == 3 && report["chain_ok"] as? Bool == false && report["replayed"] as? Bool == false)
        #expect(report["exit_status"] as? Int == 3 && (report["chain_problem"] as? String)?.contains("39 bytes") == true)
        let status = try PaylogProcess.run(["status"] + store)
        #expect(status.status == 1 && status.stderr.contains("Cannot open the store at"), "\(status.stderr)")
        #expect(status.stderr.contains("point --store at a copy made by `paylog backup`"), "\(status.stderr)")
    }

    @Test("a log cut short with its head rewritten: verify, replay and export exit 3, and a new request is refused")
    func logCutShort() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        #expect(try PaylogProcess.run(["demo", "--payments", "5"] + store).status == 0)
        let last = try #require(try PaylogProcess.jsonObject(try PaylogProcess.run(["verify", "--json"] + store).stdout)["last_position"] as? Int)
        try StoreTampering.cutLog(of: dir.path, after: UInt64(last - 1))
        let verify = try PaylogProcess.run(["verify"] + store)
        #expect(verify.status == 3)
        #expect(verify.stdout.contains("CHAIN BROKEN at position \(last): the payments view was brought up to position \(last)"),
                "\(verify.stdout)")
        #expect(try PaylogProcess.run(["replay"] + store).status == 3)
        let rebuild = try PaylogProcess.run(["rebuild-views"] + store)
        #expect(rebuild.status == 3 && rebuild.stderr.contains("brought up to position \(last)"), "\(rebuild.stderr)")
        let exports = TemporaryDirectory()
        defer { exports.remove() }
        let export = try PaylogProcess.run(["export", "-o", exports.path + "/export.jsonl"] + store)
        #expect(export.status == 3 && export.stderr.contains("the payments view was brought up to position"), "\(export.stderr)")
        #expect(export.stderr.contains("looks cut short") && export.stderr.contains("do not restore from it"), "\(export.stderr)")
        let request = try PaylogProcess.run([
            "request", "--payment", "after-cut", "--provider", "square", "--amount", "1.00", "--currency", "USD",
            "--callback", "https://shop.example/cb", "--client-id", "sq0idp-x",
        ] + store)
        #expect(request.status == 1 && request.stderr.contains("The store's log looks cut short: the payments view was brought up "
            + "to position \(last)"), "\(request.stderr)")
        // Still the same damage: the refused request did not overwrite the view's checkpoint.
        #expect(try PaylogProcess.run(["verify"] + store).stdout == verify.stdout)

        // A release whose payments view changed would rebuild it at open, going live at the head: the open is refused
        // instead, and verify, replay and rebuild-views still report the broken chain (exit 3), verify in full.
        let env2 = try Environment(path: dir.path)
        let meta2 = try env2.openDatabase("meta", create: false)
        try env2.write { txn in
            var checkpoint = try #require(try txn.value(for: Array("projection:payments".utf8), in: meta2))
            checkpoint.replaceSubrange(0..<8, with: [0, 0, 0, 0, 0, 0, 0, 1])  // an old view version
            try txn.put(checkpoint, for: Array("projection:payments".utf8), in: meta2)
        }
        env2.close()
        let status = try PaylogProcess.run(["status"] + store)
        #expect(status.status == 1 && status.stderr.contains("The store's log looks cut short"), "\(status.stderr)")
        let verifyAgain = try PaylogProcess.run(["verify"] + store)
        #expect(verifyAgain.status == 3 && verifyAgain.stdout == verify.stdout, "\(verifyAgain.stdout) \(verifyAgain.stderr)")
        let replayAgain = try PaylogProcess.run(["replay"] + store)
        #expect(replayAgain.status == 3)
        #expect(replayAgain.stdout.hasPrefix("hash chain: BROKEN at position \(last): the payments view"), "\(replayAgain.stdout)")
        #expect(try PaylogProcess.run(["rebuild-views"] + store).status == 3)
    }

    @Test("import-log into a store whose events and head were deleted, its views kept: exit 3, nothing imported, no marker")
    func importIntoEmptiedStore() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        #expect(try PaylogProcess.run(["demo", "--payments", "5"] + store).status == 0)
        let exports = TemporaryDirectory()
        defer { exports.remove() }
        let file = exports.path + "/export.jsonl"
        #expect(try PaylogProcess.run(["export", "-o", file] + store).status == 0)
        let env = try Environment(path: dir.path)
        let meta = try env.openDatabase("meta", create: false)
        let events = try env.openDatabase("events", create: false)
        try env.write { txn in
            try txn.clear(events)
            _ = try txn.delete(Array("head".utf8), in: meta)
        }
        env.close()
        let imported = try PaylogProcess.run(["import-log", file] + store)
        #expect(imported.status == 3, "\(imported.stderr)")
        #expect(imported.stderr.contains("holds no events, but its chain is broken at position 1: the payments view was "
            + "brought up to position"), "\(imported.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/import-in-progress"))
        let verify = try PaylogProcess.run(["verify", "--read-only"] + store)
        #expect(verify.status == 3 && verify.stdout.contains("CHAIN BROKEN at position 1"), "\(verify.stdout) \(verify.stderr)")
    }

    @Test("an undecodable record: export writes every other event and a damaged line in its place, exit 3; import-log refuses it")
    func undecodableRecordExport() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        // Over 64 events, so that the export encodes its page in two halves at once: one damaged record in each.
        #expect(try PaylogProcess.run(["demo", "--payments", "40"] + store).status == 0)
        let good = try PaylogProcess.run(["export"] + store).stdout.split(separator: "\n", omittingEmptySubsequences: true)
        let env = try Environment(path: dir.path)
        let events = try env.openDatabase("events", create: false)
        let key = { (position: Int) in withUnsafeBytes(of: UInt64(position).bigEndian) { Array($0) } }
        // Position 3's record cut to three bytes, and the payload of the first compressed record in the second half
        // made undecompressable (its zstd frame's magic number, 28 B5 2F FD, changed): an envelope and a payload.
        var framed = 0
        var framedBytes: [UInt8] = []
        try env.write { txn in
            try txn.put([9, 9, 9], for: key(3), in: events)
            for position in (good.count / 2 + 2)..<good.count {
                guard var value = try txn.value(for: key(position), in: events), value[0] == 2,
                      let magic = (0..<(value.count - 3)).first(where: { value[$0..<($0 + 4)] == [0x28, 0xB5, 0x2F, 0xFD] })
                else { continue }
                value[magic + 3] = 0xFE
                try txn.put(value, for: key(position), in: events)
                framed = position
                framedBytes = value
                break
            }
        }
        env.close()
        try #require(framed > 0, "a compressed record to damage")
        let exports = TemporaryDirectory()
        defer { exports.remove() }
        let export = try PaylogProcess.run(["export", "-o", exports.path + "/export.jsonl"] + store)
        #expect(export.status == 3, "\(export.stderr)")
        #expect(export.stderr.contains("2 record(s) did not decode"), "\(export.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: exports.path)
        #expect(written.count == 1 && written[0].hasPrefix("export.jsonl.chain-broken-"), "\(written)")
        let path = exports.path + "/" + written[0]
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == good.count && good.count > 10)
        for (index, line) in lines.enumerated() where index != 2 && index != framed - 1 {
            #expect(line == good[index], "line \(index + 1)")
        }
        let damaged = try PaylogProcess.jsonObject(String(lines[2]))
        #expect(damaged["position"] as? Int == 3)
        #expect(damaged["damaged"] as? String == "the value is 3 bytes, shorter than its header")
        #expect(damaged["record_base64"] as? String == "CQkJ")
        let frame = try PaylogProcess.jsonObject(String(lines[framed - 1]))
        #expect(frame["position"] as? Int == framed)
        #expect((frame["damaged"] as? String)?.hasPrefix("its compressed payload is damaged") == true, "\(frame)")
        let stored = try #require((frame["record_base64"] as? String).flatMap { Data(base64Encoded: $0) })
        #expect(Array(stored) == framedBytes)
        let target = TemporaryDirectory()
        defer { target.remove() }
        let imported = try PaylogProcess.run(["import-log", path, "--store", target.path])
        #expect(imported.status == 1)
        #expect(imported.stderr.contains("Line 3 of \(path) stands for the record at position 3, which the exporting "
            + "store could not read (the value is 3 bytes, shorter than its header)"), "\(imported.stderr)")
    }
}
