#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic time in nanoseconds, for timing operations without Foundation's overhead.
enum Stopwatch {
    /// Nanoseconds on the monotonic clock (arbitrary origin).
    @inline(__always)
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Seconds between two readings of ``now()``.
    static func seconds(from start: UInt64, to end: UInt64) -> Double {
        Double(end &- start) / 1e9
    }
}
