import Foundation
import Testing
import TestSupport

@Suite("PAYLOG_MAPPED_MEMORY_MIB: the store's mapped-memory budget from the environment")
struct MappedMemoryVariableTests {
    static let line = #"{"kind":"request","payment":"mm-1","at":"2026-11-24T09:00:00Z","url":"#
        + #""sumupmerchant://pay/1.0?affiliate-key=k&app-id=com.shop&total=12.50&currency=EUR&title=Coffee"#
        + #"&foreign-tx-id=mm-1","app_version":"1.88.0"}"#

    @Test("a value that is no budget stops the command before the store is opened, naming the variable and the value",
          arguments: ["lots", "8", "-1", "1.5", "2000000"])
    func refused(value: String) throws {
        let directory = TemporaryDirectory("paylog-mapped")
        defer { directory.remove() }
        let store = directory.path + "/store"
        let result = try PaylogProcess.run(
            ["status", "mm-1", "--store", store], environment: ["PAYLOG_MAPPED_MEMORY_MIB": value])
        #expect(result.status == 1)
        #expect(result.stderr.contains("PAYLOG_MAPPED_MEMORY_MIB=\(value) is not a budget"), "\(result.stderr)")
        #expect(result.stderr.contains("from 16 to 1048576, or 0"))
        #expect(!FileManager.default.fileExists(atPath: store), "the store was created")
    }

    @Test("0 (no budget) and a number of MiB are taken: the line is recorded and the store verifies",
          arguments: ["0", "16", "512"])
    func accepted(value: String) throws {
        let directory = TemporaryDirectory("paylog-mapped")
        defer { directory.remove() }
        let file = directory.path + "/lines.jsonl"
        try Data((Self.line + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let store = ["--store", directory.path + "/store"]
        let environment = ["PAYLOG_MAPPED_MEMORY_MIB": value]
        let ingested = try PaylogProcess.run(["ingest", file, "--json"] + store, environment: environment)
        #expect(ingested.status == 0, "\(ingested.stderr)")
        #expect(try PaylogProcess.jsonObject(ingested.stdout)["events_appended"] as? Int == 1, "\(ingested.stdout)")
        let verified = try PaylogProcess.run(["verify"] + store, environment: environment)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    }
}
