import Foundation
import TestSupport
import Testing

/// Committed logs made by earlier code, replayed by today's. A change that alters what history means — how an
/// event decodes, how the state machine evolves, what the checker finds — fails here. If the change is
/// intended, regenerate with Tools/make-golden.sh and say why in the commit.
@Suite("Golden logs")
struct GoldenLogTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden")

    static func file(_ name: String) throws -> String {
        try String(contentsOf: golden.appendingPathComponent(name), encoding: .utf8)
    }

    /// JSON objects compared structurally (key order and number formatting do not matter).
    static func objects(_ text: String) throws -> [NSDictionary] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary)
        }
    }

    @Test("the golden demo log replays to the committed status view, findings and audit")
    func demo40() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        let imported = try PaylogProcess.run(["import-log", Self.golden.appendingPathComponent("demo-40.export.jsonl").path] + store)
        #expect(imported.status == 0, "\(imported.stderr)")

        let status = try PaylogProcess.run(["status", "--json"] + store)
        #expect(try Self.objects(status.stdout) == Self.objects(try Self.file("demo-40.status.jsonl")))

        let replay = try PaylogProcess.run(["replay", "--json"] + store)
        let expected = try Self.objects(try Self.file("demo-40.replay.json"))
        #expect(try Self.objects(replay.stdout) == expected)
        #expect((expected.first?["findings"] as? [Any])?.isEmpty == false, "the golden log carries planted contract violations")

        let audit = try PaylogProcess.run(["audit", "pay-0011", "--json"] + store)
        #expect(try Self.objects(audit.stdout) == Self.objects(try Self.file("demo-40.audit-pay-0011.json")))
    }

    @Test("the golden log as the format-1 build stored it opens migrated: same status, findings, audit, export and chain")
    func formatOneStore() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try MDBDump(try Self.file("demo-40.format-1.mdb-dump")).load(into: dir.path)
        let store = ["--store", dir.path]

        let status = try PaylogProcess.run(["status", "--json"] + store)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(try Self.objects(status.stdout) == Self.objects(try Self.file("demo-40.status.jsonl")))
        let replay = try PaylogProcess.run(["replay", "--json"] + store)
        #expect(try Self.objects(replay.stdout) == Self.objects(try Self.file("demo-40.replay.json")))
        let audit = try PaylogProcess.run(["audit", "pay-0011", "--json"] + store)
        #expect(try Self.objects(audit.stdout) == Self.objects(try Self.file("demo-40.audit-pay-0011.json")))
        let export = try PaylogProcess.run(["export"] + store)
        #expect(try Self.objects(export.stdout) == Self.objects(try Self.file("demo-40.export.jsonl")))
        let verify = try PaylogProcess.run(["verify"] + store)
        #expect(verify.status == 0 && verify.stdout.contains("chain intact: 161 events"), "\(verify.stdout)\(verify.stderr)")
    }
}
