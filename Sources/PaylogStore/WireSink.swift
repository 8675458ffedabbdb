/// Where ``RecordCodec`` writes a record's wire bytes: one field list drives both ``WireSizer`` (which only
/// counts, so a value can be reserved at its exact size) and ``WireSpanWriter`` (which writes into the reserved
/// memory); ``ProtoWireWriter`` is one too, writing into a growing array. Generic code over it is specialized, so
/// none pays for the abstraction.
protocol WireSink {
    /// One raw byte.
    mutating func byte(_ value: UInt8)
    /// An unsigned LEB128 varint.
    mutating func varint(_ value: UInt64)
    /// Raw bytes, without a length.
    mutating func raw(_ bytes: UnsafeRawBufferPointer)
    /// A length-prefixed UTF-8 string.
    mutating func string(_ value: String)
}

extension WireSink {
    /// A field's tag: its number and wire type.
    @inline(__always)
    mutating func tag(_ field: UInt32, _ type: ProtoWireWriter.WireType) {
        varint(UInt64(field) << 3 | UInt64(type.rawValue))
    }

    /// A length-prefixed run of bytes.
    @inline(__always)
    mutating func lengthDelimited(_ bytes: UnsafeRawBufferPointer) {
        varint(UInt64(bytes.count))
        raw(bytes)
    }
}
