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

    @Test("an event's id index entry lost is a difference: exit 4 naming ids and the event, before a retry records it twice")
    func idEntryLost() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        #expect(try PaylogProcess.run(["demo", "--payments", "12"] + store).status == 0)
        let line = try #require(try PaylogProcess.run(["stream", "pay-0003", "--json"] + store).stdout.split(separator: "\n").first)
        let text = try #require(try PaylogProcess.jsonObject(String(line))["id"] as? String)
        let id = try #require(UUID(uuidString: text))
        let env = try Environment(path: dir.path)
        let ids = try env.openDatabase("ids", create: false)
        let deleted = try env.write { txn in try txn.delete(StoreKeys.eventID(id), in: ids) }
        #expect(deleted)
        env.close()
        #expect(try PaylogProcess.run(["verify"] + store).status == 0, "the chain itself is untouched")
        let replay = try PaylogProcess.run(["replay"] + store)
        #expect(replay.status == 4, "\(replay.stdout)")
        #expect(replay.stdout.contains("ids \(id.uuidString.lowercased()): has no entry"), "\(replay.stdout)")
    }

    @Test("an entry pointing at another payment's event: the audit and stream refuse to show it as this payment's")
    func pointingElsewhere() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        #expect(try PaylogProcess.run(["demo", "--payments", "12"] + store).status == 0)
        let firstLine = try PaylogProcess.run(["stream", "pay-0002", "--json"] + store).stdout.split(separator: "\n").first
        let line = try #require(firstLine)
        let otherPosition = try #require(try PaylogProcess.jsonObject(String(line))["position"] as? Int)
        let env = try Environment(path: dir.path)
        let versions = try env.openDatabase("versions", create: false)
        let key = StoreKeys.versionsKey("pay-0001", chunk: 0)
        try env.write { txn in
            var value = try #require(try txn.value(for: key, in: versions))
            // pay-0001 version 2 → pay-0002's first event.
            value.replaceSubrange(8..<16, with: StoreKeys.bigEndian(UInt64(otherPosition)))
            try txn.put(value, for: key, in: versions)
        }
        env.close()
        for command in [["audit", "pay-0001"], ["stream", "pay-0001"], ["replay", "--payment", "pay-0001"]] {
            let result = try PaylogProcess.run(command + store)
            #expect(result.status == 1, "\(command): \(result.stdout)")
            #expect(result.stderr.contains("`versions` index is damaged")
                && result.stderr.contains("pay-0001 version 2, where the event is pay-0002 version 1"), "\(command): \(result.stderr)")
            #expect(!result.stdout.contains("pay-0002"), "\(command): another payment's event shown as pay-0001's")
        }
        #expect(try PaylogProcess.run(["replay"] + store).status == 4)
    }
}
