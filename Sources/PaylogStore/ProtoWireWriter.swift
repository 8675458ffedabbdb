import Foundation

/// Writes protobuf's wire primitives into a byte array — LEB128 varints, zigzag integers, length-delimited
/// bytes and UTF-8, field tags — exactly as protobuf writes them, so ``ProtoWireReader`` (and any protobuf
/// library) reads them back. Used where a message is written on a hot path: the status view's payment layout.
/// Field tags and length-delimited bytes come from ``WireSink``, which the stored event envelope is written
/// through too (``RecordCodec``, into pages reserved at its exact size).
public struct ProtoWireWriter: Sendable, WireSink {
    /// The protobuf wire types this writer emits.
    public enum WireType: UInt8, Sendable {
        /// A varint.
        case varint = 0
        /// A length-delimited run of bytes.
        case lengthDelimited = 2
    }

    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// A writer that goes on after the end of `bytes`, taken over without a copy (left empty); hand them back
    /// with ``takeBytes()``. ``ViewRows`` writes a row's value this way, into its own buffer.
    init(appendingTo bytes: inout [UInt8]) {
        swap(&self.bytes, &bytes)
    }

    /// The bytes written, taken out of the writer without a copy (the writer is left empty).
    mutating func takeBytes() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        return taken
    }

    /// One raw byte.
    public mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    /// Raw bytes, without a length.
    public mutating func raw(_ value: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: value)
    }

    /// An unsigned LEB128 varint.
    public mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// A signed integer, zigzag-encoded so small negative values stay short.
    public mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// A length-prefixed UTF-8 string.
    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }
}
