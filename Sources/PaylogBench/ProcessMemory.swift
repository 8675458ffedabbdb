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
    ///
    /// Read from `/proc/self/statm` as its resident pages less its shared ones (file-backed and shared memory):
    /// the kernel's very counters behind `RssAnon`. ``MemoryPeakSampler`` reads it every 10 ms while a scenario
    /// runs, so it is one `read` of about 40 bytes into a stack buffer. Parsing `/proc/self/status` into Swift
    /// strings instead took about 2.5 % of a core, beside the scenario it measured, on the 2-core build machine.
    static func anonymousResidentBytes() -> Int? {
        let descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { buffer -> Int? in
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            guard count > 0 else { return nil }
            // Fields: size, resident, shared, text, lib, data, dirty (pages), separated by spaces.
            var fields = (resident: 0, shared: 0)
            var field = 0
            var sawShared = false
            var value = 0
            var inNumber = false
            for byte in buffer[..<count] {
                if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                    inNumber = true
                    continue
                }
                if inNumber {
                    if field == 1 { fields.resident = value }
                    if field == 2 {
                        fields.shared = value
                        sawShared = true
                        break
                    }
                    field += 1
                    value = 0
                    inNumber = false
                }
            }
            guard sawShared, fields.resident >= fields.shared else { return nil }
            return (fields.resident - fields.shared) * Int(sysconf(Int32(_SC_PAGESIZE)))
        }
    }

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
