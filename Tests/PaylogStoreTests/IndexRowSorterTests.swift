import Foundation
@testable import PaylogStore
import TestSupport
import Testing

@Suite("Sorting a rebuild's index rows in bounded memory")
struct IndexRowSorterTests {
    /// Random rows over two databases, with many keys repeated so "highest position wins" matters.
    static func rows(count: Int, seed: UInt64) -> [ViewRow] {
        var generator = SeededGenerator(seed: seed)
        let positions = (1...UInt64(count * 3)).shuffled(using: &generator)
        return (0..<count).map { index in
            let database = Bool.random(using: &generator) ? "routes" : "tags"
            // Keys of 0–6 bytes from a 3-letter alphabet: collisions, shared prefixes and the empty key.
            let key = (0..<Int.random(in: 0...6, using: &generator)).map { _ in UInt8.random(in: 97...99, using: &generator) }
            let value = Array("v\(index)".utf8)
            return ViewRow(database: database, key: key, value: value, position: positions[index])
        }
    }

    static let databases = ["tags", "routes"]

    static func sorter(_ directory: String, memory: Int, prefix: String = "run") -> IndexRowSorter {
        IndexRowSorter(projection: "test", databases: databases, directory: directory, runPrefix: prefix, memoryLimit: memory)
    }

    /// What the sorter must give: per (database, key) the row with the highest position, in the order of the
    /// sorter's databases, then LMDB key order.
    static func expected(_ rows: [ViewRow]) -> [ViewRow] {
        let order = databases
        var best: [String: [[UInt8]: ViewRow]] = [:]
        for row in rows {
            if let kept = best[row.database]?[row.key], kept.position > row.position { continue }
            best[row.database, default: [:]][row.key] = row
        }
        return order.flatMap { database in
            best[database, default: [:]].values.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        }
    }

    func drain(_ sorter: IndexRowSorter, batch: Int) throws -> [ViewRow] {
        var all: [ViewRow] = []
        while true {
            let rows = try sorter.nextBatch(batch).viewRows
            #expect(rows.count <= batch)
            if rows.isEmpty { return all }
            all += rows
        }
    }

    @Test("in memory and spilled to many run files, the merge keeps the last row per key in key order", arguments: [
        (memory: 1 << 30, batch: 1_000), (memory: 4_096, batch: 7), (memory: 300, batch: 1),
    ])
    func mergesLikeAMap(memory: Int, batch: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let scratch = dir.path + "/runs"
        let rows = Self.rows(count: 5_000, seed: UInt64(memory))
        let sorter = Self.sorter(scratch, memory: memory)
        for row in rows { try sorter.add(row) }
        if memory < 1 << 20 { #expect(sorter.spills > 1) } else { #expect(sorter.spills == 0) }
        let merged = try drain(sorter, batch: batch)
        #expect(merged == Self.expected(rows))
        sorter.close()
        #expect(!FileManager.default.fileExists(atPath: scratch), "run files and their directory are removed")
    }

    @Test("keys of 0–24 bytes sharing their first 8 or 16 bytes, some with zero bytes, come out in key order", arguments: [
        1 << 30, 2_048,
    ])
    func keysSharingPrefixes(memory: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var generator = SeededGenerator(seed: 23)
        // The sort and the merge compare keys by their first 16 bytes as two numbers before their bytes: stems that
        // fill one word, both, neither, or hold zero bytes (a zero byte and a key's end look alike in the padded
        // words).
        let stems: [[UInt8]] = [[], Array("paa-0028".utf8), Array("paa-0028-249.abc".utf8), [0, 0, 0, 0, 0, 0, 0, 0], [97, 0]]
        let positions = (1...UInt64(12_000)).shuffled(using: &generator)
        let rows = (0..<4_000).map { index in
            let stem = stems.randomElement(using: &generator)!
            let bytes: [UInt8] = [0, 1, 97, 98, 255]
            let tail = (0..<Int.random(in: 0...8, using: &generator)).map { _ in bytes.randomElement(using: &generator)! }
            let database = Bool.random(using: &generator) ? "routes" : "tags"
            return ViewRow(database: database, key: stem + tail, value: Array("v\(index)".utf8), position: positions[index])
        }
        let sorter = Self.sorter(dir.path + "/runs", memory: memory)
        for row in rows { try sorter.add(row) }
        #expect(try drain(sorter, batch: 500) == Self.expected(rows))
        sorter.close()
    }

    @Test("rows far larger than the run reader's row buffer (4 KiB) merge intact, small ones after them too")
    func largeRows() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var generator = SeededGenerator(seed: 77)
        var rows = Self.rows(count: 2_000, seed: 78)
        for index in stride(from: 0, to: rows.count, by: 9) {
            rows[index].value = (0..<Int.random(in: 4_000...40_000, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        let sorter = Self.sorter(dir.path + "/runs", memory: 200_000)
        for row in rows { try sorter.add(row) }
        #expect(sorter.spills > 1)
        #expect(try drain(sorter, batch: 13) == Self.expected(rows))
        sorter.close()
    }

    @Test("no rows: the merge is empty")
    func empty() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sorter = Self.sorter(dir.path + "/runs", memory: 64)
        #expect(try sorter.nextBatch(10).viewRows.isEmpty)
    }

    @Test("a damaged run file is reported, not merged")
    func truncatedRun() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let scratch = dir.path + "/runs"
        let sorter = Self.sorter(scratch, memory: 200)
        for row in Self.rows(count: 100, seed: 3) { try sorter.add(row) }
        let run = scratch + "/run-0.bin"
        let bytes = try #require(FileManager.default.contents(atPath: run))
        try Data(bytes.prefix(bytes.count - 3)).write(to: URL(fileURLWithPath: run))
        #expect(throws: EventStoreError.self) { _ = try drain(sorter, batch: 1_000) }
    }

    @Test("sorters filled apart and merged as one give what one sorter would, in memory and spilled", arguments: [
        (first: 1 << 30, second: 1 << 30), (first: 2_000, second: 1 << 30), (first: 500, second: 700),
    ])
    func absorbsAnother(first: Int, second: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let scratch = dir.path + "/runs"
        let rows = Self.rows(count: 3_000, seed: UInt64(first ^ second))
        let a = Self.sorter(scratch, memory: first, prefix: "part0")
        let b = Self.sorter(scratch, memory: second, prefix: "part1")
        for (index, row) in rows.enumerated() { try (index % 3 == 0 ? a : b).add(row) }
        a.absorb(b)
        #expect(try drain(a, batch: 100) == Self.expected(rows))
        #expect(try b.nextBatch(10).viewRows.isEmpty, "the absorbed sorter is left empty")
        a.close()
        b.close()
        #expect(!FileManager.default.fileExists(atPath: scratch), "every run file and the directory are removed")
    }

    @Test(
        "two rows a stream owns under one key fail the merge, naming the key; an owned row and an indexed row too; in memory and from run files",
        arguments: [1 << 20, 1])
    func ownedKeyTwice(memory: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        for second in [UInt64(0), 7] {
            let sorter = Self.sorter(dir.path + "/runs", memory: memory)
            try sorter.add(ViewRow(database: "tags", key: Array("a".utf8), value: [1]))
            try sorter.add(ViewRow(database: "tags", key: Array("b".utf8), value: [2]))
            try sorter.add(ViewRow(database: "tags", key: Array("b".utf8), value: [3], position: second))
            // With a limit of one byte every row is spilled to a run file of its own: the merge holds a copy of the
            // row it compares, since a run file's rows share one buffer.
            #expect(memory > 1 ? sorter.spills == 0 : sorter.spills == 3)
            #expect {
                _ = try drain(sorter, batch: 10)
            } throws: { error in
                guard case .rebuildFailed(let projection, let reason) = error as? EventStoreError else { return false }
                return projection == "test" && reason.contains("key b of tags")
            }
            sorter.close()
        }
    }

    @Test("a row for a database the projection does not own is refused when added")
    func unknownDatabase() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sorter = Self.sorter(dir.path + "/runs", memory: 1 << 20)
        #expect {
            try sorter.add(ViewRow(database: "elsewhere", key: [1], value: [2], position: 1))
        } throws: { error in
            guard case .rebuildFailed(_, let reason) = error as? EventStoreError else { return false }
            return reason.contains("elsewhere")
        }
    }

    @Test("one merge per database, drained at once on two threads, gives each database's rows; spilled runs are split by database", arguments: [1 << 30, 600])
    func mergesPerDatabase(memory: Int) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let rows = Self.rows(count: 4_000, seed: UInt64(memory) &+ 5)
        let sorter = Self.sorter(dir.path + "/runs", memory: memory)
        var batch = ViewRows()
        for (index, row) in rows.enumerated() {
            batch.index(row.value, for: row.key, in: row.database, position: row.position)
            if index % 50 == 49 {
                try sorter.add(batch)
                batch.removeAll()
            }
        }
        try sorter.add(batch)
        #expect(memory > 1 << 20 ? sorter.spills == 0 : sorter.spills > 1)
        let merges = try sorter.merges()
        #expect(merges.count == Self.databases.count)
        let drained = try await withThrowingTaskGroup(of: (Int, [ViewRow]).self) { group in
            for (index, merge) in merges.enumerated() {
                group.addTask {
                    var all: [ViewRow] = []
                    while case let next = try merge.nextBatch(97).viewRows, !next.isEmpty { all += next }
                    return (index, all)
                }
            }
            var byIndex: [Int: [ViewRow]] = [:]
            for try await (index, rows) in group { byIndex[index] = rows }
            return byIndex
        }
        let expected = Self.expected(rows)
        for (index, database) in Self.databases.enumerated() {
            #expect(drained[index] == expected.filter { $0.database == database })
        }
        sorter.close()
    }

    @Test("a merge refilling the batch handed back gives the same rows, in the same buffers", arguments: [1 << 30, 600])
    func refillsSpareBatch(memory: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let rows = Self.rows(count: 3_000, seed: UInt64(memory) &+ 11)
        let sorter = Self.sorter(dir.path + "/runs", memory: memory)
        for row in rows { try sorter.add(row) }
        let expected = Self.expected(rows)
        var all: [ViewRow] = []
        var refilled = 0
        for merge in try sorter.merges() {
            var spare: MergedRows?
            while true {
                // The addresses of the spare's buffers, to tell a refill from a fresh allocation.
                let before = spare.map { ($0.bytes.withUnsafeBytes { $0.baseAddress }, $0.rowsBaseAddress) }
                let batch = try merge.nextBatch(64, reusing: spare.take())
                if batch.isEmpty { break }
                all += batch.viewRows
                if let before, batch.bytes.withUnsafeBytes({ $0.baseAddress }) == before.0, batch.rowsBaseAddress == before.1 {
                    refilled += 1
                }
                spare = batch
            }
        }
        #expect(all == expected)
        // Every batch after each database's first is a refill (a batch of 64 rows never outgrows the first's
        // buffers by much: allow a few that grew).
        #expect(refilled >= expected.count / 64 - 8)
        sorter.close()
    }

    @Test("a run file buffers its full 256 KiB before writing: one write per buffer, not one per 4 KiB block")
    func runFilesBufferTheirFullSize() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/run.bin"
        let (file, buffer) = try #require(SortedRowSource.open(path, mode: "wb"))
        let bytes = [UInt8](repeating: 7, count: SortedRowSource.fileBufferSize - 1_000)
        #expect(SortedRowSource.write(bytes, bytes.count, file) == bytes.count)
        // glibc's default buffer (what `setvbuf` without a buffer of our own gives) is one 4 KiB block: the
        // file would already hold all but the last partial block.
        let buffered = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(buffered == 0)
        #expect(SortedRowSource.close(file, buffer: buffer) == 0)
        let written = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(written == bytes.count)
    }
}
