import Foundation
import Testing
import TestSupport

/// `import-log` refuses what an append refuses, and times paylog cannot record, naming the line and the field.
@Suite("import-log checks, end to end")
struct ImportChecksEndToEndTests {
    /// An export of a small demo store with line `index` (0-based) changed by `edit`, written to `name`.
    static func editedExport(in dir: TemporaryDirectory, name: String, line index: Int, _ edit: (inout [String: Any]) -> Void) throws -> String {
        if !FileManager.default.fileExists(atPath: dir.path + "/source") {
            #expect(try PaylogProcess.run(["demo", "--payments", "5", "--store", dir.path + "/source"]).status == 0)
        }
        var lines = try PaylogProcess.run(["export", "--store", dir.path + "/source"]).stdout.split(separator: "\n").map(String.init)
        var object = try PaylogProcess.jsonObject(lines[index])
        edit(&object)
        lines[index] = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        let path = dir.path + "/" + name
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("import-log refuses a time outside 0000–9999 and a stream id an append refuses, naming the line and the field; nothing is imported",
          arguments: [
            (1, "observed_at_us", "observed_at_us -9223372036854775808 is outside"),
            (2, "recorded_at_us", "recorded_at_us 253402300800000000 is outside"),
            (0, "empty stream", "it is empty"),
            (0, "long stream", "300 bytes long, over 200"),
          ])
    func importChecks(line: Int, change: String, reason: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = try Self.editedExport(in: dir, name: "edited.jsonl", line: line) { object in
            switch change {
            case "observed_at_us": object["observed_at_us"] = Int64.min
            case "recorded_at_us": object["recorded_at_us"] = 253_402_300_800_000_000 as Int64
            case "empty stream": object["stream"] = ""
            default: object["stream"] = String(repeating: "s", count: 300)
            }
        }
        let result = try PaylogProcess.run(["import-log", path, "--store", dir.path + "/target"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("Line \(line + 1) of") && result.stderr.contains(reason), "\(result.stderr)")
        #expect(!result.stderr.contains("LMDB") && !result.stderr.contains(".."), "\(result.stderr)")
        #expect(try PaylogProcess.run(["log", "--store", dir.path + "/target"]).stdout.isEmpty)
    }
}
