/// A ``WireSink`` that only counts the bytes it would write.
struct WireSizer: WireSink {
    /// The bytes counted so far.
    private(set) var count = 0

    /// The number of bytes `value` takes as a LEB128 varint (1 to 10).
    @inline(__always)
    static func varintSize(_ value: UInt64) -> Int {
        value == 0 ? 1 : (70 - value.leadingZeroBitCount) / 7
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) { count += 1 }

    @inline(__always)
    mutating func varint(_ value: UInt64) { count += Self.varintSize(value) }

    @inline(__always)
    mutating func raw(_ bytes: UnsafeRawBufferPointer) { count += bytes.count }

    @inline(__always)
    mutating func string(_ value: String) {
        let length = value.utf8.count
        count += Self.varintSize(UInt64(length)) + length
    }
}
