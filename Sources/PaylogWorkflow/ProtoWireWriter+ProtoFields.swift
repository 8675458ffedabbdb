import PaylogStore

/// Protobuf fields with their tags, for ``EventPayloadEncoder``.
extension ProtoWireWriter {
    /// A proto3 string field: left out when empty.
    mutating func text(_ field: UInt64, _ value: String) {
        guard !value.isEmpty else { return }
        always(field, value)
    }

    /// A string field written even when empty (an `optional` field that is set, a map entry's key or value).
    mutating func always(_ field: UInt64, _ value: String) {
        varint(field << 3 | 2)
        string(value)
    }

    /// A proto3 bool field: left out when false.
    mutating func flag(_ field: UInt64, _ value: Bool) {
        guard value else { return }
        varint(field << 3)
        byte(1)
    }

    /// An int64 field (negative values as ten-byte varints); a proto3 one (`always` false) is left out at zero.
    mutating func integer(_ field: UInt64, _ value: Int64, always: Bool) {
        guard always || value != 0 else { return }
        varint(field << 3)
        varint(UInt64(bitPattern: value))
    }

    /// A sub-message field, written whenever present (even when empty).
    mutating func message(_ field: UInt64, _ body: (inout ProtoWireWriter) -> Void) {
        var inner = ProtoWireWriter(capacity: 64)
        body(&inner)
        varint(field << 3 | 2)
        varint(UInt64(inner.bytes.count))
        inner.bytes.withUnsafeBytes { raw($0) }
    }
}
