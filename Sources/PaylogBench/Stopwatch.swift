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

    /// CPU seconds this process has used so far, on every thread (user and system).
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Seconds between two readings of ``now()``.
    static func seconds(from start: UInt64, to end: UInt64) -> Double {
        Double(end &- start) / 1e9
    }
}
