import CLMDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes each read fault in an environment's map bring in the one page read, not the pages around it too.
///
/// On a fault in a file mapping, Linux maps the neighbouring pages already in the page cache along with the one
/// asked for: up to 16 ("fault-around"), or a whole 2 MiB page-cache folio at once (a file read in by `cat` or `cp`
/// is kept in such folios). That suits a reader that goes on to those pages. It does not suit a map kept under a
/// memory budget (``EnvironmentOptions/mappedMemoryBudget``) and read at random, a payment's stream here and another
/// there: each fault adds 64 KiB, or 2 MiB, to the resident set for the 4 KiB read, so the budget thread releases
/// sixteen times as often, or cannot keep up at all. On the benchmark's 392 MB log under the 96 MiB budget
/// (Docs/performance.md, *Mapped memory*), one-page faults took `load-stream`'s p50 from 43–47 to 29–33 µs, its p99
/// from 93–104 to 64–78 µs and a third of its CPU time away; with the log in 2 MiB folios the scenario had held the
/// whole log, 420 MB, and now holds 106 MB. The sequential replay, scan and ingest stayed within the noise.
///
/// The kernel offers no switch for one mapping, but it skips fault-around in a range registered with a userfaultfd
/// for write protection, and since Linux 6.7 such a registration may be asynchronous (nothing waits for the
/// descriptor) and cover a shared file mapping; `MADV_NOHUGEPAGE` keeps a 2 MiB folio from being mapped whole. So
/// the map is registered and marked, and nothing else is done: no page is ever write-protected (LMDB writes the file
/// with `pwrite`, never through the map, which is read-only), and no fault ever reaches the descriptor. Where the
/// kernel refuses — older than 6.7, userfaultfd disabled or filtered by seccomp — the map keeps fault-around and
/// everything else works as before; ``isActive`` says which (the C side: `paylog_register_single_page_faults` in
/// `Sources/CLMDB/shim.h`).
///
/// LMDB replaces its mapping when the map grows, so the environment registers the new one each time.
struct SinglePageFaults: ~Copyable {
    /// The userfaultfd the map's ranges are registered with; -1 before the first registration worked.
    private var descriptor: Int32 = -1
    /// Whether the current map's ranges are registered.
    private(set) var isActive = false
    /// The `errno` of the last registration the kernel refused; 0 when none was.
    private(set) var lastError: Int32 = 0

    init() {}

    deinit {
        if descriptor >= 0 { closeUserfaultfd(descriptor) }
    }

    /// Closes the descriptor, once the map it served is gone (closing it earlier would only bring fault-around
    /// back). Later registrations make a new one.
    mutating func close() {
        if descriptor >= 0 { closeUserfaultfd(descriptor) }
        descriptor = -1
        isActive = false
    }

    /// Registers `ranges` (the map's address ranges), replacing what an earlier call registered as far as the
    /// current map goes. Returns whether every range is registered; when one is refused, the map keeps
    /// fault-around (a range registered before it stays so, which changes nothing but the size of its faults).
    mutating func register(_ ranges: [(start: UInt, end: UInt)]) -> Bool {
        #if os(Linux)
        isActive = false
        guard !ranges.isEmpty else { return false }
        for range in ranges {
            guard let start = UnsafeMutableRawPointer(bitPattern: range.start) else { return false }
            let result = paylog_register_single_page_faults(descriptor, start, Int(range.end - range.start))
            guard result >= 0 else {
                lastError = -result
                return false
            }
            descriptor = result
        }
        isActive = true
        return true
        #else
        return false
        #endif
    }
}

/// Closes a userfaultfd (a plain `close`, named apart from ``SinglePageFaults/close()``).
private func closeUserfaultfd(_ descriptor: Int32) { _ = close(descriptor) }
