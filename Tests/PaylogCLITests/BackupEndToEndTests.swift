import Foundation
import TestSupport
import Testing

@Suite("backup, end to end")
struct BackupEndToEndTests {
    @Test("paylog backup writes a copy that verifies and opens; a second backup to the same place is refused")
    func verifiedCopy() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path + "/store"]
        #expect(try PaylogProcess.run(["demo", "--payments", "40"] + store).status == 0)
        let verified = try PaylogProcess.jsonObject(try PaylogProcess.run(["verify", "--json"] + store).stdout)
        let events = verified["events_checked"] as? Int
        #expect((events ?? 0) > 100)

        let backup = try PaylogProcess.run(["backup", dir.path + "/copy", "--json"] + store)
        #expect(backup.status == 0, "\(backup.stderr)")
        let report = try PaylogProcess.jsonObject(backup.stdout)
        #expect(report["verified"] as? Bool == true)
        #expect(report["compacted"] as? Bool == true)
        #expect(report["events"] as? Int == events)
        #expect(report["last_position"] as? Int == events)

        let copied = try PaylogProcess.run(["verify", "--json", "--store", dir.path + "/copy"])
        #expect(copied.status == 0)
        #expect(try PaylogProcess.jsonObject(copied.stdout)["events_checked"] as? Int == events)
        let status = try PaylogProcess.run(["status", "pay-0007", "--store", dir.path + "/copy"])
        #expect(status.status == 0)
        #expect(status.stdout == (try PaylogProcess.run(["status", "pay-0007"] + store)).stdout)

        let again = try PaylogProcess.run(["backup", dir.path + "/copy"] + store)
        #expect(again.status == 1)
        #expect(again.stderr.contains("not empty"))

        // A mistyped store directory is not created (and backed up empty).
        let typo = try PaylogProcess.run(["backup", dir.path + "/other", "--store", dir.path + "/stroe"])
        #expect(typo.status == 1)
        #expect(typo.stderr.contains("No store at \(dir.path)/stroe: the directory does not exist"))
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/stroe"))
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/other"))
    }

    @Test("a backup's directory and data file are private (0700, 0600) whatever the umask, as the store's are")
    func privateCopy() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/store"
        #expect(try PaylogProcess.run(["demo", "--payments", "5", "--store", store]).status == 0)
        let copy = dir.path + "/copies/first"
        let backup = try PaylogProcess.run([
            "-c", "umask 022; exec \"$0\" backup \"$1\" --store \"$2\"", try PaylogProcess.binary(), copy, store,
        ], executable: "/bin/sh")
        #expect(backup.status == 0, "\(backup.stderr)")
        func mode(_ path: String) throws -> Int {
            ((try FileManager.default.attributesOfItem(atPath: path))[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        #expect(try mode(copy) == 0o700)
        #expect(try mode(copy + "/data.mdb") == 0o600)
    }

    @Test("a backup that runs out of room removes its unfinished file and says so; the store is untouched")
    func noRoom() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path + "/store"]
        #expect(try PaylogProcess.run(["demo", "--payments", "40"] + store).status == 0)
        // A file size limit of 64 KiB (ulimit counts 512-byte blocks), SIGXFSZ ignored so writes past it fail
        // with EFBIG, as on a full disk; the store's own files are not grown by a backup.
        let binary = try PaylogProcess.binary()
        let limited = try PaylogProcess.run([
            "-c", "trap '' XFSZ; ulimit -f 128; exec \"$0\" backup \"$1\" --store \"$2\"",
            binary, dir.path + "/copy", dir.path + "/store",
        ], executable: "/bin/sh")
        #expect(limited.status == 1)
        #expect(limited.stderr.contains("Cannot back up the store to \(dir.path)/copy"), "\(limited.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/copy/data.mdb"))
        #expect(try PaylogProcess.run(["verify"] + store).status == 0)
        // With room, the same destination then takes the backup.
        #expect(try PaylogProcess.run(["backup", dir.path + "/copy"] + store).status == 0)
    }
}
