import Foundation
import TestSupport
import Testing

/// A mistyped `--store` must not be answered by an empty store: "0 payment(s)" or a chain that verifies would read
/// as a finding about the real one.
@Suite("commands that read refuse a missing store")
struct MissingStoreTests {
    /// Every command that only reads the log or acts on recorded payments, with the arguments it needs.
    static let readingCommands: [[String]] = [
        ["status"], ["status", "pay-1"], ["log"], ["stream", "pay-1"], ["verify"], ["export"],
        ["replay"], ["replay", "--payment", "pay-1"], ["audit", "pay-1"], ["analytics"], ["rebuild-views"], ["expire"],
        ["reconcile", "/dev/null"], ["backup", "/tmp/paylog-missing-store-backup-never"], ["keys", "list"],
        ["keys", "revoke", "till-1"],
    ]

    @Test("a directory that does not exist: exit 1 naming it, and nothing is created", arguments: readingCommands)
    func missingDirectory(_ command: [String]) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let missing = dir.path + "/no-such-store"
        let result = try PaylogProcess.run(command + ["--store", missing])
        #expect(result.status == 1)
        #expect(result.stderr.contains("No store at \(missing): the directory does not exist"))
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test("a directory without data.mdb: exit 1, and no store is created in it", arguments: readingCommands)
    func directoryWithoutStore(_ command: [String]) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let result = try PaylogProcess.run(command, environment: ["PAYLOG_STORE": dir.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("No store at \(dir.path): the directory holds no data.mdb"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test("a recording command still creates the store, and the reading ones then open it")
    func recordingCreates() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/new-store"
        let request = try PaylogProcess.requestPayment(store: store)
        #expect(request.status == 0, "\(request.stderr)")
        let status = try PaylogProcess.run(["status", "--store", store, "pay-1"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("pay-1"))
    }

    @Test("keys list and revoke on a store no key was added to: no key, and no key database created")
    func storeWithoutKeys() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/store"
        let request = try PaylogProcess.requestPayment(store: store)
        #expect(request.status == 0, "\(request.stderr)")
        let before = try FileManager.default.contentsOfDirectory(atPath: store).sorted()
        #expect(!before.contains("service"))

        let list = try PaylogProcess.run(["keys", "list", "--store", store])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.hasSuffix("0 key(s)\n"))
        let json = try PaylogProcess.run(["keys", "list", "--json", "--store", store])
        #expect(json.status == 0 && json.stdout.isEmpty)
        let revoke = try PaylogProcess.run(["keys", "revoke", "till-1", "--store", store])
        #expect(revoke.status == 1)
        #expect(revoke.stderr.contains("No key named 'till-1': no key was ever added to the store at \(store)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: store).sorted() == before)

        let add = try PaylogProcess.run(["keys", "add", "--name", "till-1", "--scopes", "ingest", "--store", store])
        #expect(add.status == 0, "\(add.stderr)")
        let listed = try PaylogProcess.run(["keys", "list", "--store", store])
        #expect(listed.stdout.contains("till-1") && listed.stdout.hasSuffix("1 key(s)\n"))
    }

    @Test("an empty data.mdb (a failed copy) is not a store: refused, and left empty", arguments: readingCommands)
    func emptyDataFile(_ command: [String]) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let data = dir.path + "/data.mdb"
        #expect(FileManager.default.createFile(atPath: data, contents: Data()))
        let result = try PaylogProcess.run(command + ["--store", dir.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("its data.mdb is empty (0 bytes)"))
        #expect((try FileManager.default.attributesOfItem(atPath: data)[.size] as? NSNumber)?.intValue == 0)
    }
}
