#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SortedRowSource {
    /// The stdio buffer of a run file: a run is written and read row by row, two calls per row, so each call
    /// should mostly copy within this buffer.
    static let fileBufferSize = 1 << 18

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
