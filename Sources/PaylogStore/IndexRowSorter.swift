import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sorts the indexed rows of a stream-order rebuild by (database, key, position) in bounded memory, keeping
/// per (database, key) only the row with the highest position.
///
/// Rows collect in one byte arena plus a small fixed-size entry each. When the two pass `memoryLimit`, they are
/// sorted and spilled to a run file in `directory`; ``next(_:)`` then merges the runs (and what is still in
/// memory) in order. The run files are removed by ``close()`` or at deinit.
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

    private var names: [String] = []
    private var numbers: [String: UInt16] = [:]
    private var arena: [UInt8] = []
    private var entries: [Entry] = []
    private var runPaths: [String] = []
    private var sources: [Source]?
    private var pending: ViewRow?
    private let memoryLimit: Int
    private let directory: String

    /// How many run files were spilled.
    var spills: Int { runPaths.count }

    /// A sorter spilling to files in `directory` (created when first needed) once its rows take `memoryLimit`
    /// bytes.
    init(directory: String, memoryLimit: Int = 48 << 20) {
        self.directory = directory
        self.memoryLimit = memoryLimit
    }

    deinit { close() }

    /// Adds a row. Not after the first call of ``next(_:)``.
    func add(_ row: ViewRow) throws {
        precondition(sources == nil, "rows added after the merge began")
        let number: UInt16
        if let known = numbers[row.database] {
            number = known
        } else {
            number = UInt16(names.count)
            names.append(row.database)
            numbers[row.database] = number
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
            if let previous = pending, previous.database != row.database || previous.key != row.key {
                batch.append(previous)
            }
            pending = row
        }
        return batch
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
        entries = []
        arena = []
        sources = all
    }

    /// The smallest current row of all sources, or nil when all are drained.
    private func nextMerged() throws -> ViewRow? {
        guard let sources else { return nil }
        var best: Source?
        for source in sources {
            guard let row = source.current else { continue }
            if let chosen = best?.current {
                if IndexRowSorter.precedes(
                    (row.database, row.position), row.key, (chosen.database, chosen.position), chosen.key)
                {
                    best = source
                }
            } else {
                best = source
            }
        }
        guard let best, let row = best.current else { return nil }
        try best.advance()
        return ViewRow(database: names[Int(row.database)], key: row.key, value: row.value, position: row.position)
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
        let path = directory + "/run-\(runPaths.count).bin"
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
