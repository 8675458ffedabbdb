/// Reads protobuf's binary wire format field by field, straight from borrowed bytes: the envelope decoder and
/// the payment event decoder are built on it because SwiftProtobuf's generic message decoding was most of a
/// scan's and a replay's time (`perf`, `paylog bench`).
///
/// It follows protobuf's reading rules: fields in any order, the last occurrence of a scalar wins, unknown
/// fields and groups are skipped, and a known field number arriving with another wire type is skipped as
/// unknown (what SwiftProtobuf does). Truncated varints and lengths, unbalanced groups and field numbers out
/// of range are errors, reported with a reason.
public struct ProtoWireReader {
    /// Why bytes did not decode.
    public struct Failure: Error, Sendable, Hashable {
        /// What was wrong, in words.
        public var reason: String
        /// A failure with `reason`.
        public init(reason: String) { self.reason = reason }
    }

    /// Protobuf field numbers are 29-bit.
    private static let largestFieldNumber: UInt64 = (1 << 29) - 1

    private let bytes: UnsafeRawBufferPointer
    /// How many bytes have been read.
    private(set) var offset = 0

    /// A reader over `bytes`, which must stay valid while it is used.
    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// True when every byte has been read.
    public var isAtEnd: Bool { offset == bytes.count }

    /// One raw byte.
    public mutating func byte() throws(Failure) -> UInt8 {
        guard offset < bytes.count else { throw Failure(reason: "the bytes end early, at byte \(offset)") }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next field's number and wire type, or nil at the end of the bytes.
    @inline(__always)
    public mutating func nextField() throws(Failure) -> (number: UInt64, wireType: UInt8)? {
        guard offset < bytes.count else { return nil }
        let tag = try varint()
        let number = tag >> 3
        guard number > 0 && number <= ProtoWireReader.largestFieldNumber else {
            throw Failure(reason: "field number \(number) is out of range")
        }
        return (number, UInt8(truncatingIfNeeded: tag & 7))
    }

    /// A base-128 varint of at most 10 bytes, truncated to 64 bits.
    ///
    /// Tags and lengths are nearly always one byte: that case is read inline, the rest by ``longVarint()``.
    @inline(__always)
    public mutating func varint() throws(Failure) -> UInt64 {
        if offset < bytes.count {
            let first = bytes[offset]
            if first < 0x80 {
                offset += 1
                return UInt64(first)
            }
        }
        return try longVarint()
    }

    /// A varint of two bytes or more, out of line: ``varint()``'s path for values of 128 and over.
    ///
    /// With eight bytes left to read, a varint of up to eight bytes (values below 2⁵⁶: positions, versions and
    /// microsecond times) is read as one word: its length is where the first byte without its top bit is, and its
    /// seven-bit groups are packed together by three shifts, not a loop of one branch per byte.
    @inline(never)
    private mutating func longVarint() throws(Failure) -> UInt64 {
        if bytes.count - offset >= 8 {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let ends = ~word & 0x8080_8080_8080_8080
            if ends != 0 {
                let length = (ends.trailingZeroBitCount + 1) / 8
                var value = word & 0x7F7F_7F7F_7F7F_7F7F
                if length < 8 { value &= (1 << UInt64(length * 8)) - 1 }
                value = (value & 0x007F_007F_007F_007F) | ((value & 0x7F00_7F00_7F00_7F00) >> 1)
                value = (value & 0x0000_3FFF_0000_3FFF) | ((value & 0x3FFF_0000_3FFF_0000) >> 2)
                value = (value & 0x0000_0000_0FFF_FFFF) | ((value & 0x0FFF_FFFF_0000_0000) >> 4)
                offset += length
                return value
            }
        }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            // The tenth byte carries bit 63; higher bits are dropped, as protobuf readers do, but an eleventh byte is an error.
            if shift == 63 && byte & 0x80 != 0 { throw Failure(reason: "a varint is longer than 10 bytes at byte \(offset)") }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        throw Failure(reason: "the bytes end inside a varint")
    }

    /// A zigzag varint, protobuf's `sint64`: small negative values stay short.
    @inline(__always)
    public mutating func signed() throws(Failure) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// A varint read as protobuf's `bool`.
    @inline(__always)
    public mutating func bool() throws(Failure) -> Bool { try varint() != 0 }

    /// The bytes of a length-delimited field, as a view into the reader's bytes.
    @inline(__always)
    public mutating func lengthDelimited() throws(Failure) -> UnsafeRawBufferPointer {
        let length = try varint()
        guard length <= UInt64(bytes.count - offset) else {
            throw Failure(reason: "a field of \(length) bytes runs past the end")
        }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + Int(length))])
        offset += Int(length)
        return slice
    }

    /// A length-delimited field read as UTF-8 text; `name` names the field in the failure.
    @inline(__always)
    public mutating func string(_ name: String) throws(Failure) -> String {
        let slice = try lengthDelimited()
        guard let text = String(utf8Bytes: slice) else { throw Failure(reason: "\(name) is not valid UTF-8") }
        return text
    }

    /// Skips a length-delimited field after checking, as ``string(_:)`` does, that it is UTF-8 text: for a
    /// reader that does not need the text but must accept and refuse exactly what a full reading does.
    @inline(__always)
    public mutating func skipString(_ name: String) throws(Failure) {
        _ = try utf8Bytes(name)
    }

    /// Reads a length-delimited field checked, as ``string(_:)`` does, to be UTF-8 text, and returns its bytes
    /// in place instead of building a string: for a reader that hashes or compares the text.
    @inline(__always)
    public mutating func utf8Bytes(_ name: String) throws(Failure) -> UnsafeRawBufferPointer {
        let slice = try lengthDelimited()
        guard slice.isValidUTF8 else { throw Failure(reason: "\(name) is not valid UTF-8") }
        return slice
    }

    /// Skips a field the caller does not read, as protobuf readers must for forward compatibility.
    public mutating func skip(wireType: UInt8, field: UInt64) throws(Failure) {
        switch wireType {
        case 0: _ = try varint()
        case 1: try advance(8)
        case 2: _ = try lengthDelimited()
        case 5: try advance(4)
        case 3: try skipGroup(field, depth: 0)
        default: throw Failure(reason: "field \(field) has wire type \(wireType), which no field may have here")
        }
    }

    /// Skips a (deprecated) group up to its matching end tag.
    private mutating func skipGroup(_ field: UInt64, depth: Int) throws(Failure) {
        guard depth < 64 else { throw Failure(reason: "groups are nested more than 64 deep") }
        while let (inner, wireType) = try nextField() {
            switch wireType {
            case 4:
                guard inner == field else { throw Failure(reason: "group \(field) ends with the end tag of \(inner)") }
                return
            case 3: try skipGroup(inner, depth: depth + 1)
            default: try skip(wireType: wireType, field: inner)
            }
        }
        throw Failure(reason: "the bytes end inside group \(field)")
    }

    private mutating func advance(_ count: Int) throws(Failure) {
        guard bytes.count - offset >= count else { throw Failure(reason: "the bytes end inside a fixed-width field") }
        offset += count
    }
}
