import Foundation

/// Event ids for generated events: two counters in the 16 bytes of a UUID, so ids are unique within a run and
/// cost no random numbers while the clock runs.
enum BenchEventID {
    /// The id made of `high` and `low`, big-endian.
    static func make(_ high: UInt64, _ low: UInt64) -> UUID {
        let h = high.bigEndian
        let l = low.bigEndian
        return withUnsafeBytes(of: (h, l)) { bytes in
            UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        }
    }
}
