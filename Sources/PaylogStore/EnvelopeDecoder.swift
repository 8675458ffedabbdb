import Foundation

/// Decodes the `EventRecord` protobuf (`Schema/store.proto`) straight from LMDB's mapped bytes.
///
/// Reading the envelope is the inner loop of every scan, replay and verification, and SwiftProtobuf's generic
/// decoder needed the record copied into an array, a message allocated and torn down, and the payload copied a
/// second time: 72 % of a scan (`perf`, `paylog bench --scenario scan`). This decoder walks the wire format once
/// and builds the ``RecordedEvent`` directly. It accepts exactly what the protobuf rules accept for this message
/// (any field order, the last of a repeated scalar wins, unknown fields, groups and known fields with a foreign wire type skipped) and rejects what SwiftProtobuf
/// rejects (truncated varints and lengths, unbalanced groups, field numbers out of range, invalid UTF-8 in strings);
/// `EnvelopeDecoderTests` checks both against SwiftProtobuf on random records.
struct EnvelopeDecoder {
    /// Why a record did not decode; becomes ``EventStoreError/corruptRecord(position:reason:)``.
    struct Failure: Error {
        var reason: String
    }

    /// Protobuf field numbers are 29-bit.
    private static let largestFieldNumber: UInt64 = (1 << 29) - 1

    private let bytes: UnsafeRawBufferPointer
    private var offset: Int

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.offset = 0
    }

    /// Decodes `record` (the protobuf bytes after the stored value's header); `hash` is the header's hash.
    static func decode(_ record: UnsafeRawBufferPointer, hash: [UInt8]) throws(Failure) -> RecordedEvent {
        var reader = EnvelopeDecoder(record)
        var id: UUID?
        var streamID = ""
        var version: UInt64 = 0
        var position: UInt64 = 0
        var type = ""
        var schemaVersion: UInt32 = 0
        var recordedAt: Int64 = 0
        var observedAt: Int64?
        var correlationID = ""
        var causationID = ""
        var actor = ""
        var payload = Data()
        while reader.offset < reader.bytes.count {
            let tag = try reader.varint()
            let field = tag >> 3
            let wireType = UInt8(truncatingIfNeeded: tag & 7)
            guard field > 0 && field <= EnvelopeDecoder.largestFieldNumber else { throw Failure(reason: "field number \(field) is out of range") }
            switch (field, wireType) {
            case (1, 2):
                let slice = try reader.lengthDelimited()
                guard slice.count == 16 else { throw Failure(reason: "the event id is \(slice.count) bytes, not 16") }
                id = UUID(uuid: (slice[0], slice[1], slice[2], slice[3], slice[4], slice[5], slice[6], slice[7],
                                 slice[8], slice[9], slice[10], slice[11], slice[12], slice[13], slice[14], slice[15]))
            case (2, 2): streamID = try reader.string("stream_id")
            case (3, 0): version = try reader.varint()
            case (4, 0): position = try reader.varint()
            case (5, 2): type = try reader.string("type")
            case (6, 0): schemaVersion = UInt32(truncatingIfNeeded: try reader.varint())
            case (7, 0): recordedAt = Int64(bitPattern: try reader.varint())
            case (8, 0): observedAt = Int64(bitPattern: try reader.varint())
            case (9, 2): correlationID = try reader.string("correlation_id")
            case (10, 2): causationID = try reader.string("causation_id")
            case (11, 2): actor = try reader.string("actor")
            case (12, 2): payload = Data(try reader.lengthDelimited())
            default: try reader.skip(wireType: wireType, field: field)
            }
        }
        // proto3: an absent `event_id` decodes as empty bytes.
        guard let id else { throw Failure(reason: "the event id is 0 bytes, not 16") }
        return RecordedEvent(
            id: id, streamID: streamID, version: version, position: position, type: type, schemaVersion: schemaVersion,
            recordedAt: Timestamp(microseconds: recordedAt), observedAt: observedAt.map { Timestamp(microseconds: $0) },
            correlationID: correlationID, causationID: causationID, actor: actor, payload: payload, hash: hash)
    }

    /// A base-128 varint of at most 10 bytes.
    @inline(__always)
    private mutating func varint() throws(Failure) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            if shift == 63 && byte > 1 { throw Failure(reason: "a varint overflows 64 bits at byte \(offset)") }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        throw Failure(reason: "the record ends inside a varint")
    }

    /// The bytes of a length-delimited field, as a view into the record.
    @inline(__always)
    private mutating func lengthDelimited() throws(Failure) -> UnsafeRawBufferPointer {
        let length = try varint()
        guard length <= UInt64(bytes.count - offset) else {
            throw Failure(reason: "a field of \(length) bytes runs past the record's end")
        }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + Int(length))])
        offset += Int(length)
        return slice
    }

    @inline(__always)
    private mutating func string(_ name: String) throws(Failure) -> String {
        let slice = try lengthDelimited()
        guard let text = String(validating: slice, as: UTF8.self) else { throw Failure(reason: "\(name) is not valid UTF-8") }
        return text
    }

    /// Skips an unknown field, as protobuf readers must for forward compatibility.
    private mutating func skip(wireType: UInt8, field: UInt64) throws(Failure) {
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
        while offset < bytes.count {
            let tag = try varint()
            let inner = tag >> 3
            let wireType = UInt8(truncatingIfNeeded: tag & 7)
            guard inner > 0 && inner <= EnvelopeDecoder.largestFieldNumber else { throw Failure(reason: "field number \(inner) is out of range") }
            switch wireType {
            case 4:
                guard inner == field else { throw Failure(reason: "group \(field) ends with the end tag of \(inner)") }
                return
            case 3: try skipGroup(inner, depth: depth + 1)
            default: try skip(wireType: wireType, field: inner)
            }
        }
        throw Failure(reason: "the record ends inside group \(field)")
    }

    private mutating func advance(_ count: Int) throws(Failure) {
        guard bytes.count - offset >= count else { throw Failure(reason: "the record ends inside a fixed-width field") }
        offset += count
    }
}
