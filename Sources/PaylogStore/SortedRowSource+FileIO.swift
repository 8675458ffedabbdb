#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SortedRowSource {
    /// The stdio buffer of a run file: a run is written and read row by row, two calls per row, so each call
    /// should mostly copy within this buffer, and the kernel sees one `write` or `read` per 256 KiB.
    static let fileBufferSize = 1 << 18

    /// Opens the run file at `path` (`mode` as `fopen`'s) with a ``fileBufferSize`` stdio buffer of its own, or
    /// returns nil with `errno` set. Close it with ``close(_:buffer:)``.
    ///
    /// The buffer is allocated here, not left to stdio: glibc's `setvbuf` ignores the size when it is given no
    /// buffer and keeps its default of one block (4 KiB), so a 1 M-event rebuild wrote its runs in some 14,000
    /// `write` calls instead of about 150, and read them back 4 KiB at a time too (`strace -c`,
    /// Docs/performance.md).
    static func open(
        _ path: String, mode: String
    ) -> (file: UnsafeMutablePointer<FILE>, buffer: UnsafeMutableRawPointer)? {
        guard let file = fopen(path, mode) else { return nil }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: fileBufferSize, alignment: 16)
        setvbuf(file, buffer.assumingMemoryBound(to: CChar.self), _IOFBF, fileBufferSize)
        return (file, buffer)
    }

    /// Closes a run file opened by ``open(_:mode:)`` and frees its buffer (after `fclose`, which may still write
    /// from it). Returns `fclose`'s result: 0, or `EOF` when the buffered bytes could not be written.
    @discardableResult
    static func close(_ file: UnsafeMutablePointer<FILE>, buffer: UnsafeMutableRawPointer) -> Int32 {
        let result = fclose(file)
        buffer.deallocate()
        return result
    }

    /// `fwrite` of `count` bytes, without stdio's per-call lock where the C library has that variant: a run file
    /// is only ever used by the one thread that spills or merges it, and the lock was most of the cost of writing
    /// a row (`perf`, Docs/performance.md).
    static func write(_ bytes: UnsafeRawPointer, _ count: Int, _ file: UnsafeMutablePointer<FILE>) -> Int {
        #if canImport(Glibc)
        return fwrite_unlocked(bytes, 1, count, file)
        #else
        return fwrite(bytes, 1, count, file)
        #endif
    }

    /// `fread` of `count` bytes into `bytes`, unlocked like ``write(_:_:_:)``.
    static func read(_ bytes: UnsafeMutableRawPointer, _ count: Int, _ file: UnsafeMutablePointer<FILE>) -> Int {
        #if canImport(Glibc)
        return fread_unlocked(bytes, 1, count, file)
        #else
        return fread(bytes, 1, count, file)
        #endif
    }
}
