import Foundation

/// This process's memory use, read from `/proc/self` (Linux).
///
/// `VmHWM` is the peak resident set of the whole process since it started, or since the last ``resetPeak()``.
/// It counts LMDB's memory map too: the pages of `data.mdb` the process touched are resident (clean,
/// file-backed and reclaimable), so a scan of a large log raises it with the log's size. `RssAnon` counts only
/// the process's own heap and stacks.
enum ProcessMemory {
    /// Resets the peak resident set (`VmHWM`) to the current resident set by writing `5` to
    /// `/proc/self/clear_refs` (Linux 4.0 and later). Returns false where that is not possible; peaks are
    /// then process-wide since start.
    @discardableResult
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Array("5".utf8))
            return true
        } catch {
            return false
        }
    }

    /// The peak resident set in bytes (`VmHWM`), or nil when `/proc/self/status` is not readable.
    static func peakResidentBytes() -> Int? { statusField("VmHWM") }

    /// The resident set in bytes (`VmRSS`), or nil.
    static func residentBytes() -> Int? { statusField("VmRSS") }

    /// The anonymous resident memory in bytes (`RssAnon`: heap and stacks, not mapped files), or nil.
    static func anonymousResidentBytes() -> Int? { statusField("RssAnon") }

    /// A `kB` field of `/proc/self/status` in bytes.
    static func statusField(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }
}
