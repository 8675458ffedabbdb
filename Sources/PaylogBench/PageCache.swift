#if canImport(Glibc)
import Glibc
#endif

/// The operating system's page cache for one file: how much of it is resident, and dropping it.
///
/// A replay's time depends on whether the log is read from memory or from disk. On the build machine a 1 M-event
/// log (650 MB) stays cached between its build and its replay while a 10 M-event one (6.5 GB) does not (the
/// host reclaims memory within a minute), so `paylog bench` reports the resident share at the start of every
/// replay, and `--cold` drops the log's pages first, for replays compared like for like (see
/// Docs/performance.md, scale).
enum PageCache {
    /// The share (0…1) of `path`'s pages resident in the page cache (`mincore` over a read-only mapping); nil when
    /// the file cannot be mapped (then nothing is claimed).
    static func residentFraction(of path: String) -> Double? {
        #if os(Linux)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0 else { return nil }
        let length = Int(info.st_size)
        guard let map = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0), map != MAP_FAILED else { return nil }
        defer { munmap(map, length) }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let pages = (length + pageSize - 1) / pageSize
        var vector = [UInt8](repeating: 0, count: pages)
        guard mincore(map, length, &vector) == 0 else { return nil }
        let resident = vector.reduce(0) { $0 + Int($1 & 1) }
        return Double(resident) / Double(pages)
        #else
        return nil
        #endif
    }

    /// Writes back `path`'s dirty pages and asks the kernel to drop its cached pages (`posix_fadvise`
    /// `POSIX_FADV_DONTNEED`); pages mapped by a process stay until it unmaps them.
    static func drop(_ path: String) throws(BenchError) {
        #if os(Linux)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .filesystem(path: path, reason: "cannot open it to drop its cached pages") }
        defer { close(fd) }
        guard fdatasync(fd) == 0 else { throw .filesystem(path: path, reason: "cannot write back its dirty pages") }
        let result = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
        guard result == 0 else { throw .filesystem(path: path, reason: "posix_fadvise failed (error \(result))") }
        #endif
    }
}
