import PaylogStore

/// Reads what ``ByteWriter`` wrote, refusing truncated or malformed input with ``PaymentCodecError``.
struct ByteReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// True when every byte has been read.
    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte() throws(PaymentCodecError) -> UInt8 {
        guard offset < bytes.count else { throw PaymentCodecError(reason: "the value ends early, at byte \(offset)") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func varint() throws(PaymentCodecError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            if shift == 63 && byte > 1 { throw PaymentCodecError(reason: "a number overflows 64 bits at byte \(offset)") }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    mutating func signed() throws(PaymentCodecError) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    mutating func string() throws(PaymentCodecError) -> String {
        let length = try varint()
        guard length <= UInt64(bytes.count - offset) else {
            throw PaymentCodecError(reason: "a text of \(length) bytes runs past the value's end")
        }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + Int(length))])
        offset += Int(length)
        guard let text = String(utf8Bytes: slice) else {
            throw PaymentCodecError(reason: "a text is not valid UTF-8")
        }
        return text
    }
}
