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

    /// The resident bytes of the one mapping holding `address` (`/proc/self/smaps`): an environment's map alone,
    /// whatever the other tests running in this process map or release meanwhile (`RssFile` counts them all).
    static func residentBytes(ofMappingAt address: UInt) throws -> Int {
        let fields = try smapsFields("Rss:", ofMappingAt: address)
        return try #require(fields.first.flatMap { Int($0) }, "no Rss of the mapping at \(address)") * 1024
    }

    /// The fields after `label` (such as `Rss:` or `VmFlags:`) in the `/proc/self/smaps` entry of the one mapping
    /// holding `address`; an issue is recorded when no mapping holds it.
    static func smapsFields(_ label: String, ofMappingAt address: UInt) throws -> [Substring] {
        // Read to the end: `String(contentsOfFile:)` stops after the first read of a `/proc` file, which reports no size.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? handle.close() }
        let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        var inside = false
        for line in smaps.split(separator: "\n") {
            // A mapping's header: `start-end perms offset dev inode path`, the addresses in hex.
            if let dash = line.firstIndex(of: "-"), let space = line.firstIndex(of: " "), dash < space,
                let start = UInt(line[..<dash], radix: 16), let end = UInt(line[line.index(after: dash)..<space], radix: 16)
            {
                inside = start <= address && address < end
            } else if inside && line.hasPrefix(label) {
                return Array(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst())
            }
        }
        Issue.record("no mapping holds address \(address)")
        return []
    }

    /// An environment in `path` holding `values` values of 4,000 bytes (about a page each).
    static func filled(_ path: String, values: Int) throws -> (Environment, Database) {
        let env = try Environment(path: path)
        let db = try env.openDatabase("values")
        try env.write { txn in
            for index in 0..<values {
                let value = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 4_000)
                try txn.put(value, for: withUnsafeBytes(of: UInt64(index).bigEndian) { Array($0) }, in: db)
            }
        }
        return (env, db)
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
        // 48 MB of values, each filling about one page.
        let (env, db) = try Self.filled(dir.path, values: 12_000)
        defer { env.close() }
        let expected = try Self.touchAll(env, db)
        let before = try Self.residentFileBytes()
        env.releaseMappedPages()
        let after = try Self.residentFileBytes()
        #expect(before - after > 24 << 20, "resident file pages went from \(before) to \(after) bytes")
        #expect(try Self.touchAll(env, db) == expected, "pages fault back in with their content")
    }

    @Test("a budget releases only when the resident file-backed memory is over it")
    func budget() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (env, db) = try Self.filled(dir.path, values: 4_000)
        defer { env.close() }
        _ = try Self.touchAll(env, db)
        #expect(!env.releaseMappedPages(ifResidentFileBytesAbove: Int.max))
        let before = try Self.residentFileBytes()
        // The budget is compared with the file-backed resident memory (`statm`'s third field), not the whole
        // resident set: just above it keeps the pages, well below it releases them.
        #expect(!env.releaseMappedPages(ifResidentFileBytesAbove: before + (16 << 20)))
        #expect(env.releaseMappedPages(ifResidentFileBytesAbove: before - (8 << 20)))
        let after = try Self.residentFileBytes()
        #expect(before - after > 8 << 20, "resident file pages went from \(before) to \(after) bytes")
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

    /// The lowest and highest addresses of the values whose keys are below `count`, read through the map.
    static func addresses(_ env: Environment, _ db: Database, firstValues count: Int) throws -> (UInt, UInt) {
        try env.read { txn in
            try txn.withCursor(db) { cursor in
                var (low, high) = (UInt.max, UInt(0))
                var found = try cursor.move(.first)
                var seen = 0
                while found && seen < count {
                    cursor.withCurrent { _, value in
                        let address = UInt(bitPattern: value.baseAddress)
                        (low, high) = (min(low, address), max(high, address + UInt(value.count)))
                    }
                    seen += 1
                    found = try cursor.move(.next)
                }
                return (low, high)
            }
        }
    }

    @Test("releasing an address range drops only the map's pages in it, and never memory outside the map")
    func releaseRange() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (env, db) = try Self.filled(dir.path, values: 12_000)
        defer { env.close() }
        let expected = try Self.touchAll(env, db)
        let (low, high) = try Self.addresses(env, db, firstValues: 6_000)
        // The map's own resident bytes: the process's file-backed total also moves with the other tests' stores,
        // whose budget threads may release their maps meanwhile.
        let before = try Self.residentBytes(ofMappingAt: low)
        env.releaseMappedPages(from: low, to: high)
        let after = try Self.residentBytes(ofMappingAt: low)
        #expect(before - after > 16 << 20, "half the values' pages left: \(before) to \(after) bytes")
        #expect(before - after < 40 << 20, "the other half stayed: \(before) to \(after) bytes")
        // Heap memory is not the map's: a range over it is ignored, its bytes stay.
        let heap = [UInt8](repeating: 7, count: 1 << 20)
        heap.withUnsafeBytes { raw in
            let start = UInt(bitPattern: raw.baseAddress)
            env.releaseMappedPages(from: start, to: start + UInt(raw.count))
        }
        #expect(heap.allSatisfy { $0 == 7 })
        #expect(try Self.touchAll(env, db) == expected, "pages fault back in with their content")
    }
}
