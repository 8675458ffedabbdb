import Foundation
import TestSupport
import Testing

@Suite("export and import-log, end to end")
struct ExportImportTests {
    @Test("export → import-log into an empty store restores the log byte for byte, and the chain verifies")
    func roundTrip() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let source = ["--store", dir.path + "/source"]
        let target = ["--store", dir.path + "/target"]
        #expect(try PaylogProcess.run(["demo", "--payments", "40"] + source).status == 0)
        let exported = try PaylogProcess.run(["export"] + source)
        #expect(exported.status == 0)
        let lines = exported.stdout.split(separator: "\n")
        #expect(lines.count > 100)
        try exported.stdout.write(toFile: dir.path + "/log.jsonl", atomically: true, encoding: .utf8)
        let imported = try PaylogProcess.run(["import-log", dir.path + "/log.jsonl", "--json"] + target)
        #expect(imported.status == 0, "\(imported.stderr)")
        let summary = try PaylogProcess.jsonObject(imported.stdout)
        #expect(summary["imported"] as? Int == lines.count)
        #expect(summary["chain_ok"] as? Bool == true)
        #expect(try PaylogProcess.run(["export"] + target).stdout == exported.stdout)
        #expect(try PaylogProcess.run(["status", "--json"] + target).stdout == PaylogProcess.run(["status", "--json"] + source).stdout,
                "the status view rebuilt during import equals the original")
        // Importing again into the now non-empty store is refused and changes nothing.
        let again = try PaylogProcess.run(["import-log", dir.path + "/log.jsonl"] + target)
        #expect(again.status != 0 && again.stderr.contains("empty store"))
        #expect(try PaylogProcess.run(["export"] + target).stdout == exported.stdout)
    }

    @Test("an export with one altered field is refused and nothing is imported")
    func tamperedExport() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(try PaylogProcess.run(["demo", "--payments", "10", "--store", dir.path + "/source"]).status == 0)
        var lines = try PaylogProcess.run(["export", "--store", dir.path + "/source"]).stdout.split(separator: "\n").map(String.init)
        lines[3] = lines[3].replacingOccurrences(of: "\"actor\":\"demo\"", with: "\"actor\":\"mallory\"")
        try lines.joined(separator: "\n").write(toFile: dir.path + "/bad.jsonl", atomically: true, encoding: .utf8)
        let result = try PaylogProcess.run(["import-log", dir.path + "/bad.jsonl", "--store", dir.path + "/target"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("position 4") && result.stderr.contains("altered"))
        #expect(try PaylogProcess.run(["log", "--store", dir.path + "/target"]).stdout.isEmpty)
    }

    @Test("an export cut short imports as a shorter log that verifies; the head hash verify printed tells it apart")
    func cutShort() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(try PaylogProcess.run(["demo", "--payments", "10", "--store", dir.path + "/source"]).status == 0)
        let source = try PaylogProcess.jsonObject(try PaylogProcess.run(["verify", "--json", "--store", dir.path + "/source"]).stdout)
        let sourceHash = try #require(source["head_hash"] as? String)
        #expect(sourceHash.count == 64)
        let lines = try PaylogProcess.run(["export", "--store", dir.path + "/source"]).stdout.split(separator: "\n")
        for (name, kept) in [("whole", lines.count), ("short", lines.count - 3)] {
            try lines.prefix(kept).joined(separator: "\n").write(toFile: dir.path + "/\(name).jsonl", atomically: true, encoding: .utf8)
            let imported = try PaylogProcess.run(["import-log", dir.path + "/\(name).jsonl", "--json", "--store", dir.path + "/" + name])
            let object = try PaylogProcess.jsonObject(imported.stdout)
            #expect(object["chain_ok"] as? Bool == true)
            #expect((object["head_hash"] as? String == sourceHash) == (name == "whole"), "\(name): \(object)")
            #expect((object["last_position"] as? Int == source["last_position"] as? Int) == (name == "whole"))
        }
    }

    @Test("an export with a line removed is refused naming the missing position, not blaming the store")
    func lineRemoved() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(try PaylogProcess.run(["demo", "--payments", "10", "--store", dir.path + "/source"]).status == 0)
        var lines = try PaylogProcess.run(["export", "--store", dir.path + "/source"]).stdout.split(separator: "\n").map(String.init)
        lines.remove(at: 4)
        try lines.joined(separator: "\n").write(toFile: dir.path + "/gap.jsonl", atomically: true, encoding: .utf8)
        let result = try PaylogProcess.run(["import-log", dir.path + "/gap.jsonl", "--store", dir.path + "/target"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("position 5 is missing") && !result.stderr.contains("import into an empty store"), "\(result.stderr)")
    }

    @Test("an export altered after its first import batch leaves the store empty, and one from standard input imports whole")
    func tamperedAfterFirstBatch() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(try PaylogProcess.run(["demo", "--payments", "600", "--store", dir.path + "/source"]).status == 0)
        let exported = try PaylogProcess.run(["export", "--store", dir.path + "/source"]).stdout
        var lines = exported.split(separator: "\n").map(String.init)
        #expect(lines.count > 2_100, "the alteration must lie beyond the first batch of 2,000 events")
        lines[2_099] = lines[2_099].replacingOccurrences(of: "\"actor\":\"demo\"", with: "\"actor\":\"dem0\"")
        try lines.joined(separator: "\n").write(toFile: dir.path + "/bad.jsonl", atomically: true, encoding: .utf8)
        let target = ["--store", dir.path + "/target"]
        let result = try PaylogProcess.run(["import-log", dir.path + "/bad.jsonl"] + target)
        #expect(result.status == 1)
        #expect(result.stderr.contains("position 2100") && result.stderr.contains("Nothing was imported"))
        #expect(try PaylogProcess.run(["log"] + target).stdout.isEmpty, "no event of the first batches was kept")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path + "/target")
        #expect(!leftovers.contains { $0.hasPrefix("import-check-") }, "the scratch store is removed")

        let piped = try PaylogProcess.run(["import-log", "-", "--json"] + target, stdin: exported)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try PaylogProcess.jsonObject(piped.stdout)["imported"] as? Int == lines.count)
        #expect(try PaylogProcess.run(["export"] + target).stdout == exported)
    }

    @Test("export -o refuses a path inside the store, and a full disk fails it naming the cause")
    func exportOutputs() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path + "/store"]
        #expect(try PaylogProcess.run(["demo", "--payments", "5"] + store).status == 0)
        for inside in [dir.path + "/store/data.mdb", dir.path + "/store/../store/log.jsonl"] {
            let refused = try PaylogProcess.run(["export", "-o", inside] + store)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("is inside the store directory"))
        }
        #expect(try PaylogProcess.run(["verify"] + store).status == 0, "the store's files are untouched")

        let full = try PaylogProcess.run(["export", "-o", "/dev/full"] + store)
        #expect(full.status == 1)
        #expect(full.stderr.contains("No space left on device"), "\(full.stderr)")
        var status = stat()
        #expect(stat("/dev/full", &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR, "the device is written to, not replaced")
    }

    @Test("export -o that fails leaves the file that was there as it was; through a symbolic link the link stays")
    func exportKeepsThePreviousFile() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path + "/store"]
        #expect(try PaylogProcess.run(["demo", "--payments", "20"] + store).status == 0)
        let file = dir.path + "/nightly.jsonl"
        #expect(try PaylogProcess.run(["export", "--from", "70", "-o", file] + store).status == 0)
        let previous = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!previous.isEmpty && previous.utf8.count < 16_384)
        // The whole log (about 60 KB) against a file-size limit of 16 KB: the write fails with EFBIG.
        let failed = try PaylogProcess.run(
            ["-c", #"ulimit -f 32; trap '' XFSZ; exec "$0" "$@""#, try PaylogProcess.binary(), "export", "--read-only", "-o", file] + store,
            executable: "/bin/sh")
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("File too large") && failed.stderr.contains("the file is as it was before"), "\(failed.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == previous)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.contains(".partial-") })

        let target = dir.path + "/exports/today.jsonl"
        try FileManager.default.createDirectory(atPath: dir.path + "/exports", withIntermediateDirectories: true)
        try "old".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/latest", withDestinationPath: target)
        #expect(try PaylogProcess.run(["export", "-o", dir.path + "/latest"] + store).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.path + "/latest") == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == PaylogProcess.run(["export"] + store).stdout)
    }

    @Test("export -o with a one-character relative path writes there, or refuses it, and never traps")
    func exportShortRelativePaths() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(try PaylogProcess.run(["demo", "--payments", "5", "--store", dir.path + "/store"]).status == 0)
        let exported = try PaylogProcess.run(["export", "--store", dir.path + "/store"]).stdout

        let written = try PaylogProcess.run(["export", "--store", "store", "-o", "x"], directory: dir.path)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try String(contentsOfFile: dir.path + "/x", encoding: .utf8) == exported)

        let inside = try PaylogProcess.run(["export", "--store", ".", "-o", "x"], directory: dir.path + "/store")
        #expect(inside.status == 1, "\(inside.stderr)")
        #expect(inside.stderr.contains("x is inside the store directory ."), "\(inside.stderr)")

        for directory in ["./", "t/"] {
            let refused = try PaylogProcess.run(["export", "--store", "store", "-o", directory], directory: dir.path)
            #expect(refused.status == 1, "\(refused.stderr)")
            #expect(refused.stderr.contains("Cannot write \(directory): Is a directory."), "\(refused.stderr)")
        }
        #expect(try PaylogProcess.run(["verify", "--store", dir.path + "/store"]).status == 0, "the store's files are untouched")
    }

    @Test("an import killed while it writes leaves a store that refuses to open, saying so, until it is removed")
    func killedImport() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(try PaylogProcess.run(["demo", "--payments", "3000", "--store", dir.path + "/source"]).status == 0)
        #expect(try PaylogProcess.run(["export", "--store", dir.path + "/source", "-o", dir.path + "/log.jsonl"]).status == 0)
        let target = dir.path + "/target"
        let importer = ChildProcess()
        importer.executableURL = URL(fileURLWithPath: try PaylogProcess.binary())
        importer.arguments = ["import-log", dir.path + "/log.jsonl", "--store", target]
        importer.standardOutput = FileHandle.nullDevice
        importer.standardError = FileHandle.nullDevice
        try importer.run()
        // Killed as soon as it begins writing into the store (the check pass is over, the marker is down).
        let marker = target + "/import-in-progress"
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: marker) && importer.isRunning && Date() < deadline {
            usleep(1_000)
        }
        importer.send(SIGKILL)
        importer.waitUntilExit()
        try #require(importer.terminationReason == .uncaughtSignal, "the import finished before it could be killed")
        for command in [["verify"], ["status"], ["import-log", dir.path + "/log.jsonl"]] {
            let result = try PaylogProcess.run(command + ["--store", target])
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("holds an unfinished import"), "\(command): \(result.stderr)")
        }
        // As the refusal advises: the log and the marker go, the rest of the directory (API keys) stays.
        try FileManager.default.removeItem(atPath: target + "/data.mdb")
        try FileManager.default.removeItem(atPath: marker)
        let again = try PaylogProcess.run(["import-log", dir.path + "/log.jsonl", "--store", target])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try PaylogProcess.run(["export", "--store", target]).stdout == String(contentsOfFile: dir.path + "/log.jsonl", encoding: .utf8))
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).allSatisfy { !$0.hasPrefix("import-check-") })
    }

    @Test("import-log is refused while another process has the store open: its appends would land under the import")
    func importBesideServe() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(try PaylogProcess.run(["demo", "--payments", "20", "--store", dir.path + "/source"]).status == 0)
        #expect(try PaylogProcess.run(["export", "--store", dir.path + "/source", "-o", dir.path + "/log.jsonl"]).status == 0)
        let target = dir.path + "/target"
        let (server, _) = try ServeProcessTests.start(["serve", "--store", target, "--port", "0"])
        defer { if server.isRunning { server.terminate() } }
        let refused = try PaylogProcess.run(["import-log", dir.path + "/log.jsonl", "--store", target])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Cannot import an export into \(target): another process has the store open"),
                "\(refused.stderr)")
        #expect(!refused.stderr.contains("view"), "the import replaces no view: \(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target + "/import-in-progress"))
        // Into a served store that holds events, the reason is the events, which stopping the server would not mend.
        let (source, _) = try ServeProcessTests.start(["serve", "--store", dir.path + "/source", "--port", "0"])
        defer { if source.isRunning { source.terminate() } }
        let held = try PaylogProcess.run(["import-log", dir.path + "/log.jsonl", "--store", dir.path + "/source"])
        #expect(held.status == 1)
        #expect(held.stderr.contains("already holds") && held.stderr.contains("into an empty store only"), "\(held.stderr)")
        source.send(SIGTERM)
        source.waitUntilExit()
        server.send(SIGTERM)
        server.waitUntilExit()
        let imported = try PaylogProcess.run(["import-log", dir.path + "/log.jsonl", "--store", target])
        #expect(imported.status == 0, "\(imported.stderr)")
    }
}
