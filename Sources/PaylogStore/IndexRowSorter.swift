import Foundation
import LMDBKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sorts the rows of a rebuild by (database, key, position) in bounded memory, keeping per (database, key)
/// only the row with the highest position.
///
/// Rows collect in one byte arena plus a small fixed-size entry each. When the two pass `memoryLimit`, they are
/// sorted and spilled to a run file in `directory`, with the byte offset where each database's rows begin.
/// ``merges()`` then gives one ``RowMerge`` per database over the runs and what is still in memory, so the
/// databases can be merged at once on different threads; ``nextBatch(_:)`` merges them one after the other. Several
/// sorters filled on different threads are merged as one with ``absorb(_:)``. Rows a stream owns (position 0,
/// ``ViewRows/append(_:for:in:)``) must be unique per key: the merge fails on a second one. The run files are
/// removed by ``close()`` or at deinit. One thread fills a sorter, so the properties its per-row path touches are
/// `@exclusivity(unchecked)` (see ``FoldScratch``).
final class IndexRowSorter {
    /// One spilled run: its file, and per database the byte offset where its rows begin (plus the file's end).
    private struct Run {
        var path: String
        var starts: [Int64]
    }

    /// The projection whose rows these are, for errors.
    private let projection: String
    /// The databases rows may go to; a row's database is stored as its index here, so rows sort in this order.
    private let names: [String]
    private let numbers: [String: UInt16]
    /// Names run files apart from those of other sorters sharing the directory.
    private let runPrefix: String
    /// In-memory rows taken over from absorbed sorters, each sorted.
    private var absorbed: [(entries: [SortedRowEntry], arena: RowArena)] = []
    @exclusivity(unchecked) private var arena = RowArena()
    @exclusivity(unchecked) private var entries: [SortedRowEntry] = []
    /// False once a row is added to `entries` after they were last sorted.
    @exclusivity(unchecked) private var entriesSorted = true
    private var runs: [Run] = []
    @exclusivity(unchecked) private var merging = false
    /// The merges ``nextBatch(_:)`` drains, one database after the other.
    private var sequential: [RowMerge]?
    private let memoryLimit: Int
    private let directory: String

    /// How many run files were spilled.
    var spills: Int { runs.count }

    /// A sorter of `projection`'s rows for `databases`, spilling to files named `runPrefix`… in `directory`
    /// (created when first needed) once its rows take `memoryLimit` bytes.
    init(
        projection: String, databases: [String], directory: String, runPrefix: String = "run", memoryLimit: Int = 48 << 20
    ) {
        self.projection = projection
        names = databases
        numbers = Dictionary(uniqueKeysWithValues: databases.enumerated().map { ($1, UInt16($0)) })
        self.directory = directory
        self.runPrefix = runPrefix
        self.memoryLimit = memoryLimit
    }

    deinit { close() }

    /// Adds a row. Not once the merge began.
    func add(_ row: ViewRow) throws {
        precondition(!merging, "rows added after the merge began")
        let database = try number(of: row.database)
        row.key.withUnsafeBytes { key in
            entries.append(SortedRowEntry(
                offset: arena.count, key: key, valueCount: Int32(row.value.count), database: database, position: row.position))
        }
        row.key.withUnsafeBytes { arena.append($0) }
        row.value.withUnsafeBytes { arena.append($0) }
        entriesSorted = false
        try spillIfFull()
    }

    /// Adds every row of `rows`. Not once the merge began.
    func add(_ rows: ViewRows) throws {
        precondition(!merging, "rows added after the merge began")
        let base = arena.count
        var lastName: String?
        var lastNumber: UInt16 = 0
        try rows.bytes.withUnsafeBytes { bytes in
            for row in rows.entries {
                if row.database != lastName {
                    lastNumber = try number(of: row.database)
                    lastName = row.database
                }
                let key = UnsafeRawBufferPointer(rebasing: bytes[row.offset..<(row.offset + row.keyCount)])
                entries.append(SortedRowEntry(
                    offset: base + row.offset, key: key, valueCount: Int32(row.valueCount), database: lastNumber,
                    position: row.position))
            }
        }
        rows.bytes.withUnsafeBytes { arena.append($0) }
        entriesSorted = entriesSorted && rows.entries.isEmpty
        try spillIfFull()
    }

    /// Up to `limit` rows in (database, key) order, one per key (the highest position), packed; empty when all
    /// were returned.
    func nextBatch(_ limit: Int) throws -> MergedRows {
        if sequential == nil { sequential = try merges() }
        while let merge = sequential?.first {
            let rows = try merge.nextBatch(limit)
            if !rows.isEmpty { return rows }
            sequential?.removeFirst()
        }
        return MergedRows(names: names, capacity: 0)
    }

    /// One merge per database, in the order of the sorter's databases; each may run on a thread of its own. Call
    /// once, after the last row was added.
    func merges() throws -> [RowMerge] {
        precondition(!merging, "the merge began already")
        merging = true
        sortEntries()
        var memory = absorbed
        memory.append((entries, arena))
        entries = []
        arena = RowArena()
        absorbed = []
        // Each in-memory arena handed over as it is, shared by the merges of every database.
        let arenas = memory
        return try names.indices.map { number in
            var sources: [SortedRowSource] = []
            for run in runs where run.starts[number] < run.starts[number + 1] {
                sources.append(try SortedRowSource(path: run.path, from: run.starts[number], to: run.starts[number + 1]))
            }
            for (entries, arena) in arenas {
                let start = entries.firstIndex { $0.database >= number } ?? entries.endIndex
                let end = entries[start...].firstIndex { $0.database > number } ?? entries.endIndex
                if start < end { sources.append(SortedRowSource(entries: entries[start..<end], arena: arena)) }
            }
            return RowMerge(projection: projection, names: names, sources: sources)
        }
    }

    /// Takes over `other`'s rows (its run files and what it holds in memory), so that this sorter's merge
    /// includes them. Neither may have begun merging; `other` is left empty.
    func absorb(_ other: IndexRowSorter) {
        precondition(!merging && !other.merging, "a sorter absorbed after the merge began")
        precondition(names == other.names, "sorters of different databases")
        other.sortEntries()
        absorbed.append((other.entries, other.arena))
        absorbed += other.absorbed
        runs += other.runs
        other.entries = []
        other.arena = RowArena()
        other.absorbed = []
        other.runs = []
    }

    /// Removes the run files.
    func close() {
        sequential = []
        for run in runs { unlink(run.path) }
        runs = []
        rmdir(directory)
    }

    private func number(of database: String) throws -> UInt16 {
        guard let number = numbers[database] else {
            throw EventStoreError.rebuildFailed(
                projection: projection,
                reason: "its fold wrote to database \(database), which is not one of its databases \(names)")
        }
        return number
    }

    private func spillIfFull() throws {
        if arena.count + entries.count * MemoryLayout<SortedRowEntry>.stride >= memoryLimit { try spill() }
    }

    /// Sorts the rows held in memory now, so that ``merges()`` or ``absorb(_:)`` need not: lets each fold thread
    /// sort its own sorter's rows in parallel with the others.
    func sortInMemoryRows() {
        sortEntries()
    }

    private func sortEntries() {
        guard !entriesSorted else { return }
        defer { entriesSorted = true }
        let base = arena.bytes
        entries.sort { a, b in
            if a.database != b.database { return a.database < b.database }
            if a.prefix != b.prefix { return a.precedes(byPrefix: b) }
            let order = RowMerge.compare(
                UnsafeRawBufferPointer(rebasing: base[a.offset..<(a.offset + Int(a.keyCount))]),
                UnsafeRawBufferPointer(rebasing: base[b.offset..<(b.offset + Int(b.keyCount))]))
            if order != 0 { return order < 0 }
            return a.position < b.position
        }
    }

    /// Sorts what is in memory and writes it to a new run file.
    private func spill() throws {
        sortEntries()
        // 0700: the runs hold the views' rows, inside the store directory.
        do { try Environment.makeDirectory(directory) } catch { throw SortedRowSource.failure("create \(directory)") }
        let path = directory + "/\(runPrefix)-\(runs.count).bin"
        guard let (file, buffer) = SortedRowSource.open(path, mode: "wb") else {
            throw SortedRowSource.failure("create run file \(path)")
        }
        var run = Run(path: path, starts: [])
        runs.append(run)
        var closed = false
        defer { if !closed { SortedRowSource.close(file, buffer: buffer) } }
        var header = [UInt8](repeating: 0, count: SortedRowSource.headerSize)
        var written: Int64 = 0
        let base = arena.bytes
        for entry in entries {
            while run.starts.count <= Int(entry.database) { run.starts.append(written) }
            header.withUnsafeMutableBytes { raw in
                raw.storeBytes(of: entry.database, toByteOffset: 0, as: UInt16.self)
                raw.storeBytes(of: UInt32(entry.keyCount), toByteOffset: 2, as: UInt32.self)
                raw.storeBytes(of: UInt32(entry.valueCount), toByteOffset: 6, as: UInt32.self)
                raw.storeBytes(of: entry.position, toByteOffset: 10, as: UInt64.self)
            }
            let count = Int(entry.keyCount) + Int(entry.valueCount)
            guard SortedRowSource.write(header, header.count, file) == header.count,
                count == 0 || SortedRowSource.write(base.baseAddress! + entry.offset, count, file) == count
            else { throw SortedRowSource.failure("write run file \(path)") }
            written += Int64(header.count + count)
        }
        while run.starts.count <= names.count { run.starts.append(written) }
        runs[runs.count - 1] = run
        closed = true
        guard SortedRowSource.close(file, buffer: buffer) == 0 else {
            throw SortedRowSource.failure("write run file \(path)")
        }
        entries.removeAll(keepingCapacity: true)
        arena.removeAll()
    }
}
