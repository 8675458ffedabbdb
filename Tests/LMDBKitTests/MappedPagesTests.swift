import Foundation
import LMDBKit
import TestSupport
import Testing

@Suite("Releasing the memory map")
struct MappedPagesTests {
    /// The process's resident file-backed pages in bytes (`RssFile` in /proc/self/status).
    static func residentFileBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("RssFile:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }

    /// Reads every value through the map, touching each page; returns the sum of all bytes.
    static func touchAll(_ env: Environment, _ db: Database) throws -> Int {
        try env.read { txn in
            try txn.withCursor(db) { cursor in
                var sum = 0
                var found = try cursor.move(.first)
                while found {
                    sum += cursor.withCurrent { _, value in value.reduce(0) { $0 + Int($1) } }
                    found = try cursor.move(.next)
                }
                return sum
            }
        }
    }

    @Test("after a scan the log's pages leave the resident set, and reads afterwards see the same bytes")
    func releaseDropsResidentPages() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let env = try Environment(path: dir.path)
        defer { env.close() }
        let db = try env.openDatabase("values")
        // 48 MB of values, each filling about one page.
        try env.write { txn in
            for index in 0..<12_000 {
                let value = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 4_000)
                try txn.put(value, for: withUnsafeBytes(of: UInt64(index).bigEndian) { Array($0) }, in: db)
            }
        }
        let expected = try Self.touchAll(env, db)
        let before = try Self.residentFileBytes()
        env.releaseMappedPages()
        let after = try Self.residentFileBytes()
        #expect(before - after > 24 << 20, "resident file pages went from \(before) to \(after) bytes")
        #expect(try Self.touchAll(env, db) == expected, "pages fault back in with their content")
    }

    @Test("releasing a closed environment does nothing")
    func closedIsHarmless() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let env = try Environment(path: dir.path)
        env.close()
        env.releaseMappedPages()
        #expect(throws: LMDBError.closed) { try env.read { _ in 0 } }
    }
}
