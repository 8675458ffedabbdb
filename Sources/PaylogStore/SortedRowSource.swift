#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A sorted source of rows for a ``RowMerge``: a slice of a sorter's in-memory entries, or a byte range of one
/// run file (one database's rows).
final class SortedRowSource {
    /// The bytes of one row header in a run file: database u16, key length u32, value length u32, position u64.
    static let headerSize = 18

    private var entries: ArraySlice<SortedRowEntry> = []
    private var arena: [UInt8] = []
    private let file: UnsafeMutablePointer<FILE>?
    private let path: String
    /// Bytes of the run file left to read.
    private var remaining: Int64 = 0
    /// One row's header, read into the same buffer for every row of a run file.
    private var header = [UInt8](repeating: 0, count: SortedRowSource.headerSize)
    private(set) var current: (database: UInt16, position: UInt64, key: [UInt8], value: [UInt8])?

    /// The rows `entries` (sorted) of `arena`.
    init(entries: ArraySlice<SortedRowEntry>, arena: [UInt8]) {
        self.entries = entries
        self.arena = arena
        file = nil
        path = ""
        advanceInMemory()
    }

    /// The rows of run file `path` from byte `start` to byte `end`.
    init(path: String, from start: Int64, to end: Int64) throws {
        guard let file = fopen(path, "rb") else { throw SortedRowSource.failure("open run file \(path)") }
        self.file = file
        self.path = path
        remaining = end - start
        guard fseeko(file, off_t(start), SEEK_SET) == 0 else { throw SortedRowSource.failure("seek in run file \(path)") }
        try advance()
    }

    deinit { if let file { fclose(file) } }

    /// Moves to the next row; `current` is nil past the last.
    func advance() throws {
        guard let file else { return advanceInMemory() }
        guard remaining > 0 else { current = nil; return }
        guard remaining >= Int64(header.count), fread(&header, 1, header.count, file) == header.count else {
            throw SortedRowSource.failure("read run file \(path) (truncated header)")
        }
        let (database, keyCount, valueCount, position) = header.withUnsafeBytes { raw in
            (raw.loadUnaligned(as: UInt16.self), Int(raw.loadUnaligned(fromByteOffset: 2, as: UInt32.self)),
             Int(raw.loadUnaligned(fromByteOffset: 6, as: UInt32.self)), raw.loadUnaligned(fromByteOffset: 10, as: UInt64.self))
        }
        remaining -= Int64(header.count + keyCount + valueCount)
        var key = [UInt8](repeating: 0, count: keyCount)
        var value = [UInt8](repeating: 0, count: valueCount)
        guard remaining >= 0, keyCount == 0 || fread(&key, 1, keyCount, file) == keyCount,
            valueCount == 0 || fread(&value, 1, valueCount, file) == valueCount
        else { throw SortedRowSource.failure("read run file \(path) (truncated row)") }
        current = (database, position, key, value)
    }

    private func advanceInMemory() {
        guard let entry = entries.popFirst() else { current = nil; return }
        let keyEnd = entry.offset + Int(entry.keyCount)
        current = (entry.database, entry.position, Array(arena[entry.offset..<keyEnd]),
                   Array(arena[keyEnd..<(keyEnd + Int(entry.valueCount))]))
    }

    /// The error for a failed operation on the rebuild's scratch files.
    static func failure(_ operation: String) -> EventStoreError {
        .storage(.lmdb(code: errno, operation: "rebuild scratch: \(operation)"))
    }
}
