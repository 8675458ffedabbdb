/// A ``WireSink`` that writes into memory sized in advance with ``WireSizer``: an LMDB page reserved with
/// `MDB_RESERVE`, or an array's uninitialized capacity. Writing past the end is a programming error and traps.
struct WireSpanWriter: WireSink {
    private let buffer: UnsafeMutableRawBufferPointer
    /// The bytes written so far.
    private(set) var count = 0

    /// A writer filling `buffer` from its start.
    init(_ buffer: UnsafeMutableRawBufferPointer) {
        self.buffer = buffer
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        precondition(count < buffer.count, "a record outgrew the size it was reserved at")
        buffer.storeBytes(of: value, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    @inline(__always)
    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            byte(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        byte(UInt8(value))
    }

    @inline(__always)
    mutating func raw(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        precondition(bytes.count <= buffer.count - count, "a record outgrew the size it was reserved at")
        (buffer.baseAddress! + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            raw(UnsafeRawBufferPointer(utf8))
        }
    }

    /// Replaces the bytes at `offset` with `bytes` (which must lie inside what was written).
    mutating func overwrite(at offset: Int, with bytes: UnsafeRawBufferPointer) {
        precondition(offset + bytes.count <= count, "an overwrite past the bytes written")
        guard let source = bytes.baseAddress else { return }
        (buffer.baseAddress! + offset).copyMemory(from: source, byteCount: bytes.count)
    }

    /// The bytes written so far.
    var written: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: buffer[..<count]) }
}
