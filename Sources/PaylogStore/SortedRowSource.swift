#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A sorted source of rows for a ``RowMerge``: a slice of a sorter's in-memory entries, or a byte range of one
/// run file (one database's rows).
///
/// The current row is exposed as plain pointers (``key``, ``value``): into the sorter's ``RowArena``, valid while the
/// source lives, or into one row buffer reused for every row of a run file, valid until the next ``advance()``
/// (``rowsOutliveAdvance`` tells which). Building two arrays per row,
/// and retaining and releasing them at every comparison of the merge's heap, was most of the merge's time.
final class SortedRowSource {
    /// The bytes of one row header in a run file: database u16, key length u32, value length u32, position u64.
    static let headerSize = 18

    private var entries: ArraySlice<SortedRowEntry> = []
    private let arena: RowArena?
    private let file: UnsafeMutablePointer<FILE>?
    /// The stdio buffer of `file` (``open(_:mode:)``).
    private let fileBuffer: UnsafeMutableRawPointer?
    private let path: String
    /// Bytes of the run file left to read.
    private var remaining: Int64 = 0
    /// One row of a run file (header, key, value), reused for every row; grown when a row needs more.
    private var buffer: UnsafeMutableRawBufferPointer

    /// True while there is a current row.
    private(set) var hasRow = false
    /// The current row's database number.
    private(set) var database: UInt16 = 0
    /// The current row's position (see ``ViewRow/position``).
    private(set) var position: UInt64 = 0
    /// The current row's key's first sixteen bytes (``SortedRowEntry/prefix``), so that the merge's heap
    /// compares the bytes only when they are equal.
    private(set) var prefix: (UInt64, UInt64) = (0, 0)
    /// The current row's key and value, until the next ``advance()`` (for ever, while this source lives, when
    /// ``rowsOutliveAdvance``).
    private(set) var key = UnsafeRawBufferPointer(start: nil, count: 0)
    private(set) var value = UnsafeRawBufferPointer(start: nil, count: 0)
    /// True when a row's ``key`` and ``value`` stay valid after ``advance()``, for as long as this source lives:
    /// rows in memory point into the sorter's arena, which is no longer written; a run file's rows share one buffer.
    var rowsOutliveAdvance: Bool { file == nil }

    /// The rows `entries` (sorted) of `arena`.
    init(entries: ArraySlice<SortedRowEntry>, arena: RowArena) {
        self.entries = entries
        self.arena = arena
        file = nil
        fileBuffer = nil
        path = ""
        buffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        advanceInMemory()
    }

    /// The rows of run file `path` from byte `start` to byte `end`.
    init(path: String, from start: Int64, to end: Int64) throws {
        guard let (file, fileBuffer) = SortedRowSource.open(path, mode: "rb") else {
            throw SortedRowSource.failure("open run file \(path)")
        }
        arena = nil
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4_096, alignment: 8)
        self.file = file
        self.fileBuffer = fileBuffer
        self.path = path
        remaining = end - start
        guard fseeko(file, off_t(start), SEEK_SET) == 0 else { throw SortedRowSource.failure("seek in run file \(path)") }
        try advance()
    }

    deinit {
        if let file, let fileBuffer { SortedRowSource.close(file, buffer: fileBuffer) }
        if buffer.baseAddress != nil { buffer.deallocate() }
    }

    /// Moves to the next row; ``hasRow`` is false past the last.
    func advance() throws {
        guard let file else { return advanceInMemory() }
        guard remaining > 0 else { hasRow = false; return }
        let headerSize = SortedRowSource.headerSize
        guard remaining >= Int64(headerSize), SortedRowSource.read(buffer.baseAddress!, headerSize, file) == headerSize else {
            throw SortedRowSource.failure("read run file \(path) (truncated header)")
        }
        let row = UnsafeRawBufferPointer(buffer)
        database = row.loadUnaligned(as: UInt16.self)
        let keyCount = Int(row.loadUnaligned(fromByteOffset: 2, as: UInt32.self))
        let valueCount = Int(row.loadUnaligned(fromByteOffset: 6, as: UInt32.self))
        position = row.loadUnaligned(fromByteOffset: 10, as: UInt64.self)
        let count = keyCount + valueCount
        remaining -= Int64(headerSize + count)
        guard remaining >= 0 else { throw SortedRowSource.failure("read run file \(path) (truncated row)") }
        if headerSize + count > buffer.count {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: max(headerSize + count, 2 * buffer.count), alignment: 8)
            grown.copyMemory(from: UnsafeRawBufferPointer(buffer))
            buffer.deallocate()
            buffer = grown
        }
        guard count == 0 || SortedRowSource.read(buffer.baseAddress! + headerSize, count, file) == count else {
            throw SortedRowSource.failure("read run file \(path) (truncated row)")
        }
        let bytes = UnsafeRawBufferPointer(buffer)
        key = UnsafeRawBufferPointer(rebasing: bytes[headerSize..<(headerSize + keyCount)])
        value = UnsafeRawBufferPointer(rebasing: bytes[(headerSize + keyCount)..<(headerSize + count)])
        prefix = (SortedRowEntry.word(of: key, at: 0), SortedRowEntry.word(of: key, at: 8))
        hasRow = true
    }

    private func advanceInMemory() {
        guard let entry = entries.popFirst(), let arena else { hasRow = false; return }
        let keyEnd = entry.offset + Int(entry.keyCount)
        database = entry.database
        position = entry.position
        prefix = entry.prefix
        key = UnsafeRawBufferPointer(rebasing: arena.bytes[entry.offset..<keyEnd])
        value = UnsafeRawBufferPointer(rebasing: arena.bytes[keyEnd..<(keyEnd + Int(entry.valueCount))])
        hasRow = true
    }

    /// The error for a failed operation on the rebuild's scratch files.
    static func failure(_ operation: String) -> EventStoreError {
        .storage(.lmdb(code: errno, operation: "rebuild scratch: \(operation)"))
    }
}
