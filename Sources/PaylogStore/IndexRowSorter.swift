import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sorts the rows of a rebuild by (database, key, position) in bounded memory, keeping per (database, key)
/// only the row with the highest position.
///
/// Rows collect in one byte arena plus a small fixed-size entry each. When the two pass `memoryLimit`, they are
/// sorted and spilled to a run file in `directory`; ``next(_:)`` then merges the runs (and what is still in
/// memory) in order, through a heap of the sources. Several sorters filled on different threads are merged as
/// one with ``absorb(_:)``. Rows a stream owns (position 0, ``ViewRows/append(_:for:in:)``) must be unique per
/// key: the merge fails on a second one. The run files are removed by ``close()`` or at deinit.
final class IndexRowSorter {
    /// Where one row's bytes sit in the arena.
    private struct Entry {
        var offset: Int
        var keyCount: Int32
        var valueCount: Int32
        var database: UInt16
        var position: UInt64
    }

    /// A sorted source of rows for the merge: the in-memory entries or one run file.
    private final class Source {
        private var entries: [Entry] = []
        private var arena: [UInt8] = []
        private var index = 0
        private let file: UnsafeMutablePointer<FILE>?
        /// One row's header, read into the same buffer for every row of a run file.
        private var header = [UInt8](repeating: 0, count: IndexRowSorter.headerSize)
        private(set) var current: (database: UInt16, position: UInt64, key: [UInt8], value: [UInt8])?

        init(entries: [Entry], arena: [UInt8]) throws {
            self.entries = entries
            self.arena = arena
            file = nil
            try advance()
        }

        init(path: String) throws {
            guard let file = fopen(path, "rb") else { throw IndexRowSorter.failure("open run file \(path)") }
            self.file = file
            try advance()
        }

        deinit { if let file { fclose(file) } }

        func advance() throws {
            if let file {
                let read = fread(&header, 1, header.count, file)
                if read == 0 && feof(file) != 0 { current = nil; return }
                guard read == header.count else { throw IndexRowSorter.failure("read a run file (truncated header)") }
                let (database, keyCount, valueCount, position) = header.withUnsafeBytes { raw in
                    (raw.loadUnaligned(as: UInt16.self), Int(raw.loadUnaligned(fromByteOffset: 2, as: UInt32.self)),
                     Int(raw.loadUnaligned(fromByteOffset: 6, as: UInt32.self)), raw.loadUnaligned(fromByteOffset: 10, as: UInt64.self))
                }
                var key = [UInt8](repeating: 0, count: keyCount)
                var value = [UInt8](repeating: 0, count: valueCount)
                guard (keyCount == 0 || fread(&key, 1, keyCount, file) == keyCount),
                    (valueCount == 0 || fread(&value, 1, valueCount, file) == valueCount)
                else { throw IndexRowSorter.failure("read a run file (truncated row)") }
                current = (database, position, key, value)
            } else {
                guard index < entries.count else { current = nil; return }
                let entry = entries[index]
                index += 1
                let keyEnd = entry.offset + Int(entry.keyCount)
                current = (entry.database, entry.position, Array(arena[entry.offset..<keyEnd]),
                           Array(arena[keyEnd..<(keyEnd + Int(entry.valueCount))]))
            }
        }
    }

    static let headerSize = 18

    /// The projection whose rows these are, for errors.
    private let projection: String
    /// The databases rows may go to; a row's database is stored as its index here, so rows sort in this order.
    private let names: [String]
    private let numbers: [String: UInt16]
    /// Names run files apart from those of other sorters sharing the directory.
    private let runPrefix: String
    /// In-memory rows taken over from absorbed sorters, each sorted.
    private var absorbed: [(entries: [Entry], arena: [UInt8])] = []
    private var arena: [UInt8] = []
    private var entries: [Entry] = []
    private var runPaths: [String] = []
    /// The merge's sources, a binary min-heap by current row once the merge began.
    private var sources: [Source]?
    private var pending: ViewRow?
    private let memoryLimit: Int
    private let directory: String

    /// How many run files were spilled.
    var spills: Int { runPaths.count }

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

    /// Adds a row. Not after the first call of ``next(_:)``.
    func add(_ row: ViewRow) throws {
        precondition(sources == nil, "rows added after the merge began")
        guard let number = numbers[row.database] else {
            throw EventStoreError.rebuildFailed(
                projection: projection,
                reason: "its fold wrote to database \(row.database), which is not one of its databases \(names)")
        }
        entries.append(Entry(
            offset: arena.count, keyCount: Int32(row.key.count), valueCount: Int32(row.value.count), database: number,
            position: row.position))
        arena.append(contentsOf: row.key)
        arena.append(contentsOf: row.value)
        if arena.count + entries.count * MemoryLayout<Entry>.stride >= memoryLimit { try spill() }
    }

    /// Up to `limit` rows in (database, key) order, one per key (the highest position); empty when all were
    /// returned.
    func next(_ limit: Int) throws -> [ViewRow] {
        if sources == nil { try startMerge() }
        var batch: [ViewRow] = []
        while batch.count < limit {
            guard let row = try nextMerged() else {
                if let last = pending { batch.append(last); pending = nil }
                break
            }
            if let previous = pending {
                if previous.database != row.database || previous.key != row.key {
                    batch.append(previous)
                } else if previous.position == 0 || row.position == 0 {
                    throw EventStoreError.rebuildFailed(
                        projection: projection,
                        reason: "two streams wrote key \(String(decoding: row.key, as: UTF8.self)) of \(row.database) as their own row; "
                            + "a stream's own rows (ViewRows.append) must be keyed by that stream alone")
                }
            }
            pending = row
        }
        return batch
    }

    /// Takes over `other`'s rows (its run files and what it holds in memory), so that this sorter's merge
    /// includes them. Neither may have begun merging; `other` is left empty.
    func absorb(_ other: IndexRowSorter) {
        precondition(sources == nil && other.sources == nil, "a sorter absorbed after the merge began")
        precondition(names == other.names, "sorters of different databases")
        other.sortEntries()
        absorbed.append((other.entries, other.arena))
        absorbed += other.absorbed
        runPaths += other.runPaths
        other.entries = []
        other.arena = []
        other.absorbed = []
        other.runPaths = []
    }

    /// Removes the run files.
    func close() {
        sources = []
        for path in runPaths { unlink(path) }
        runPaths = []
        rmdir(directory)
    }

    private func startMerge() throws {
        sortEntries()
        var all: [Source] = []
        for path in runPaths { all.append(try Source(path: path)) }
        all.append(try Source(entries: entries, arena: arena))
        for (entries, arena) in absorbed { all.append(try Source(entries: entries, arena: arena)) }
        entries = []
        arena = []
        absorbed = []
        all.removeAll { $0.current == nil }
        // Heapify: every parent precedes its children.
        for index in stride(from: all.count / 2 - 1, through: 0, by: -1) { IndexRowSorter.siftDown(&all, from: index) }
        sources = all
    }

    /// The smallest current row of all sources, or nil when all are drained.
    private func nextMerged() throws -> ViewRow? {
        guard var heap = sources, let top = heap.first, let row = top.current else { return nil }
        sources = nil  // keeps the heap array uniquely referenced while it is reordered
        defer { sources = heap }
        try top.advance()
        if top.current == nil {
            let last = heap.removeLast()
            if !heap.isEmpty { heap[0] = last }
        }
        if !heap.isEmpty { IndexRowSorter.siftDown(&heap, from: 0) }
        return ViewRow(database: names[Int(row.database)], key: row.key, value: row.value, position: row.position)
    }

    /// Restores the heap order below `index`, every source having a current row.
    private static func siftDown(_ heap: inout [Source], from index: Int) {
        var parent = index
        while true {
            var smallest = parent
            let left = 2 * parent + 1
            if left < heap.count && rowPrecedes(heap[left], heap[smallest]) { smallest = left }
            if left + 1 < heap.count && rowPrecedes(heap[left + 1], heap[smallest]) { smallest = left + 1 }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }

    private static func rowPrecedes(_ a: Source, _ b: Source) -> Bool {
        let x = a.current!
        let y = b.current!
        return precedes((x.database, x.position), x.key, (y.database, y.position), y.key)
    }

    private static func precedes(
        _ a: (database: UInt16, position: UInt64), _ aKey: [UInt8], _ b: (database: UInt16, position: UInt64), _ bKey: [UInt8]
    ) -> Bool {
        if a.database != b.database { return a.database < b.database }
        let order = aKey.withUnsafeBytes { x in bKey.withUnsafeBytes { y in compare(x, y) } }
        if order != 0 { return order < 0 }
        return a.position < b.position
    }

    /// memcmp order, shorter first on a common prefix (LMDB's default key order).
    private static func compare(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Int32 {
        let common = min(x.count, y.count)
        if common > 0 {
            let order = memcmp(x.baseAddress!, y.baseAddress!, common)
            if order != 0 { return order }
        }
        return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
    }

    private func sortEntries() {
        arena.withUnsafeBytes { base in
            entries.sort { a, b in
                if a.database != b.database { return a.database < b.database }
                let order = IndexRowSorter.compare(
                    UnsafeRawBufferPointer(rebasing: base[a.offset..<(a.offset + Int(a.keyCount))]),
                    UnsafeRawBufferPointer(rebasing: base[b.offset..<(b.offset + Int(b.keyCount))]))
                if order != 0 { return order < 0 }
                return a.position < b.position
            }
        }
    }

    /// Sorts what is in memory and writes it to a new run file.
    private func spill() throws {
        sortEntries()
        if mkdir(directory, 0o755) != 0 && errno != EEXIST { throw IndexRowSorter.failure("create \(directory)") }
        let path = directory + "/\(runPrefix)-\(runPaths.count).bin"
        guard let file = fopen(path, "wb") else { throw IndexRowSorter.failure("create run file \(path)") }
        runPaths.append(path)
        defer { fclose(file) }
        var header = [UInt8](repeating: 0, count: IndexRowSorter.headerSize)
        try arena.withUnsafeBytes { base in
            for entry in entries {
                header.withUnsafeMutableBytes { raw in
                    raw.storeBytes(of: entry.database, toByteOffset: 0, as: UInt16.self)
                    raw.storeBytes(of: UInt32(entry.keyCount), toByteOffset: 2, as: UInt32.self)
                    raw.storeBytes(of: UInt32(entry.valueCount), toByteOffset: 6, as: UInt32.self)
                    raw.storeBytes(of: entry.position, toByteOffset: 10, as: UInt64.self)
                }
                let count = Int(entry.keyCount) + Int(entry.valueCount)
                guard fwrite(header, 1, header.count, file) == header.count,
                    count == 0 || fwrite(base.baseAddress! + entry.offset, 1, count, file) == count
                else { throw IndexRowSorter.failure("write run file \(path)") }
            }
        }
        guard fflush(file) == 0 else { throw IndexRowSorter.failure("write run file \(path)") }
        entries.removeAll(keepingCapacity: true)
        arena.removeAll(keepingCapacity: true)
    }

    private static func failure(_ operation: String) -> EventStoreError {
        .storage(.lmdb(code: errno, operation: "rebuild scratch: \(operation)"))
    }
}
