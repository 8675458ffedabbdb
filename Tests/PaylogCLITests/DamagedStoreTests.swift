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
}
