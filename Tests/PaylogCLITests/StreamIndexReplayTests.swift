import Foundation
import LMDBKit
@testable import PaylogStore
import TestSupport
import Testing

/// The stream index is what `paylog stream`, the audit and time travel read a payment through: `paylog replay`
/// must report it when it no longer matches the log, even though the chain and the views still do.
@Suite("replay checks the stream index, end to end")
struct StreamIndexReplayTests {
    @Test("a payment's versions entry cut short is a difference: exit 4 naming the stream and version")
    func cutShort() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        #expect(try PaylogProcess.run(["demo", "--payments", "12"] + store).status == 0)
        let before = try PaylogProcess.run(["replay"] + store)
        #expect(before.status != 4 && before.stdout.contains("the rebuilt views match the live ones"), "intact before")
        let env = try Environment(path: dir.path)
        let versions = try env.openDatabase("versions", create: false)
        let key = StoreKeys.versionsKey("pay-0001", chunk: 0)
        try env.write { txn in
            let value = try #require(try txn.value(for: key, in: versions))
            #expect(value.count >= 16, "pay-0001 has at least two events")
            try txn.put(Array(value.dropLast(8)), for: key, in: versions)
        }
        env.close()
        #expect(try PaylogProcess.run(["verify"] + store).status == 0, "the chain itself is untouched")
        let replay = try PaylogProcess.run(["replay"] + store)
        #expect(replay.status == 4, "\(replay.stdout)")
        #expect(replay.stdout.contains("versions"), "\(replay.stdout)")
        #expect(replay.stdout.contains("pay-0001"), "\(replay.stdout)")
    }
}
