import Foundation
import TestSupport
import Testing

/// Docs/operations.md, *Files and permissions*: a store directory paylog creates is 0700, whatever the umask lets
/// others have (each command here runs under umask 022, which leaves a plain `mkdir` 0755).
@Suite("store directories are created 0700")
struct StoreDirectoryModeTests {
    /// Runs `paylog arguments` under umask 022.
    static func runUnderUmask022(_ arguments: [String]) throws -> PaylogProcess.Result {
        try PaylogProcess.run(["-c", #"umask 022 && exec "$0" "$@""#, try PaylogProcess.binary()] + arguments, executable: "/bin/sh")
    }

    /// The permission bits of `path`.
    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test("paylog keys add creates the store directory, and those above it, 0700")
    func keysAdd() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/site/store"
        let added = try Self.runUnderUmask022(["keys", "add", "--store", store, "--name", "ops", "--scopes", "read"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try Self.mode(store) == 0o700)
        #expect(try Self.mode(dir.path + "/site") == 0o700)
        #expect(try Self.mode(store + "/service") == 0o700)
    }

    @Test("paylog serve creates the store directory and those above it, 0700, as operations.md says")
    func serveCreatesParents() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/srv/paylog/store"
        let (server, port) = try ServeProcessTests.start(["serve", "--store", store, "--port", "0"])
        defer { if server.isRunning { server.terminate() } }
        #expect(port > 0)
        #expect(try Self.mode(store) == 0o700)
        #expect(try Self.mode(dir.path + "/srv/paylog") == 0o700)
        #expect(try Self.mode(dir.path + "/srv") == 0o700)
        #expect(FileManager.default.fileExists(atPath: store + "/data.mdb"))
    }

    @Test("a store another user cannot read is named as such, not as a directory without a store")
    func unreadableToAnotherUser() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/store"
        #expect(try PaylogProcess.run(["demo", "--payments", "3", "--store", store]).status == 0)
        let result: PaylogProcess.Result
        if geteuid() == 0 {
            // Root reads everything: ask as nobody, who may pass through the temporary directory but not the store.
            #expect(chmod(dir.path, 0o755) == 0)
            result = try PaylogProcess.run(
                ["--reuid=65534", "--regid=65534", "--clear-groups", try PaylogProcess.binary(), "verify", "--store", store],
                executable: "/usr/bin/setpriv")
        } else {
            #expect(chmod(store, 0) == 0)
            defer { _ = chmod(store, 0o700) }
            result = try PaylogProcess.run(["verify", "--store", store])
        }
        #expect(result.status == 1)
        #expect(result.stderr.contains("Cannot read the store at \(store): permission denied"), "\(result.stderr)")
        #expect(!result.stderr.contains("holds no data.mdb"), "\(result.stderr)")
    }

    @Test("paylog backup creates its destination 0700: the copy holds the same personal data")
    func backup() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path + "/store"]
        #expect(try Self.runUnderUmask022(["demo", "--payments", "5"] + store).status == 0)
        #expect(try Self.mode(dir.path + "/store") == 0o700)
        let backup = try Self.runUnderUmask022(["backup", dir.path + "/copies/monday"] + store)
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(try Self.mode(dir.path + "/copies/monday") == 0o700)
        #expect(try Self.mode(dir.path + "/copies") == 0o700)
    }
}
