import Foundation
import LMDBKit
import TestSupport
import Testing

@Suite("Keeping the memory map under a budget")
struct MappedMemoryBudgetTests {
    /// The bytes of `directory/data.mdb` resident in this process's mappings (the `Rss:` lines of its mappings in
    /// /proc/self/smaps): the map of one environment alone, whatever other tests map meanwhile.
    static func mappedBytes(ofStoreIn directory: String) throws -> Int {
        let file = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path + "/data.mdb"
        // Read to the end: /proc files report no size, and a one-shot read of one stops after its first page.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? handle.close() }
        let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        var inFile = false
        var kilobytes = 0
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // A mapping's header starts with its address range ("7f…-7f…"); its path is the last field.
            if let first = fields.first, first.contains("-"), fields.count >= 5 {
                inFile = fields.count >= 6 && fields[5...].joined(separator: " ") == file
            } else if inFile, fields.first == "Rss:", fields.count >= 2, let value = Int(fields[1]) {
                kilobytes += value
            }
        }
        return kilobytes * 1024
    }

    /// Waits up to `seconds` for `condition`, looking every 10 ms; returns whether it held.
    static func eventually(within seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(10_000)
        }
        return try condition()
    }

    @Test("with a budget, the environment releases the pages a read mapped, on its own and between transactions")
    func releasesOnItsOwn() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (filling, db) = try MappedPagesTests.filled(dir.path, values: 12_000)
        let expected = try MappedPagesTests.touchAll(filling, db)
        filling.close()
        // A budget of one byte: the process's file-backed memory (its own code, at least) is always over it.
        let env = try Environment(path: dir.path, options: EnvironmentOptions(mappedMemoryBudget: 1))
        defer { env.close() }
        let db2 = try env.openDatabase("values")
        #expect(try MappedPagesTests.touchAll(env, db2) == expected, "reads see the same bytes while pages come and go")
        let released = try Self.eventually(within: 2) { try Self.mappedBytes(ofStoreIn: dir.path) < 4 << 20 }
        let mapped = try Self.mappedBytes(ofStoreIn: dir.path)
        #expect(released, "still mapped: \(mapped) bytes")
        #expect(env.budgetReleases > 0)
    }

    @Test("without a budget, the pages a read mapped stay mapped")
    func staysWithoutBudget() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (env, db) = try MappedPagesTests.filled(dir.path, values: 12_000)
        defer { env.close() }
        _ = try MappedPagesTests.touchAll(env, db)
        usleep(50_000)
        let mapped = try Self.mappedBytes(ofStoreIn: dir.path)
        #expect(mapped > 40 << 20, "48 MB of values read, \(mapped) bytes mapped")
        #expect(env.budgetReleases == 0)
    }

    @Test("closing the environment stops its releases")
    func closeStops() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let env = try Environment(path: dir.path, options: EnvironmentOptions(mappedMemoryBudget: 1))
        #expect(Self.eventually(within: 2) { env.budgetReleases > 0 }, "the thread released nothing")
        env.close()
        // A release already under way when `close` was called may still be counted; none after it.
        usleep(20_000)
        let atClose = env.budgetReleases
        usleep(50_000)
        #expect(env.budgetReleases == atClose)
    }
}
