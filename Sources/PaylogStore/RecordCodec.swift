import Crypto
import Foundation

/// Encodes events into the stored value layout and decodes them back. See Docs/storage.md.
///
/// Value layout: format byte `0x01` | SHA-256 hash (32 bytes) | `EventRecord` protobuf bytes.
enum RecordCodec {
    static let headerSize = 33

    /// The stored value of `event` with the envelope the store assigned, and its chain hash (SHA-256 over
    /// `previous` and the record bytes), written in one buffer without an intermediate message or copy.
    ///
    /// The record bytes are exactly what protobuf writes for `EventRecord` (fields in number order, proto3
    /// defaults left out, `observed_at_us` present whenever set), so imports recompute the same hashes and any
    /// protobuf library reads the records; `RecordCodecTests` hold it to SwiftProtobuf.
    static func storedValue(
        _ event: NewEvent, streamID: String, version: UInt64, position: UInt64, recordedAt: Timestamp, previous: ChainDigest
    ) -> (value: [UInt8], hash: ChainDigest) {
        var writer = ProtoWireWriter(
            capacity: headerSize + 96 + streamID.utf8.count + event.type.utf8.count + event.correlationID.utf8.count
                + event.causationID.utf8.count + event.actor.utf8.count + event.payload.count)
        writer.byte(StoreKeys.recordFormatByte)
        ChainDigest.genesis.withUnsafeBytes { writer.raw($0) }  // the hash's place, filled in below
        writer.tag(1, .lengthDelimited)
        withUnsafeBytes(of: event.id.uuid) { writer.lengthDelimited($0) }
        string(2, streamID, &writer)
        varint(3, version, &writer)
        varint(4, position, &writer)
        string(5, event.type, &writer)
        varint(6, UInt64(event.schemaVersion), &writer)
        varint(7, UInt64(bitPattern: recordedAt.microseconds), &writer)
        if let observed = event.observedAt {
            writer.tag(8, .varint)
            writer.varint(UInt64(bitPattern: observed.microseconds))
        }
        string(9, event.correlationID, &writer)
        string(10, event.causationID, &writer)
        string(11, event.actor, &writer)
        if !event.payload.isEmpty {
            writer.tag(12, .lengthDelimited)
            event.payload.withUnsafeBytes { writer.lengthDelimited($0) }
        }
        let hash = writer.bytes.withUnsafeBytes { value in
            chainHash(previous: previous, record: UnsafeRawBufferPointer(rebasing: value[headerSize...]))
        }
        hash.withUnsafeBytes { writer.overwrite(at: 1, with: $0) }
        return (writer.bytes, hash)
    }

    private static func varint(_ field: UInt32, _ value: UInt64, _ writer: inout ProtoWireWriter) {
        guard value != 0 else { return }
        writer.tag(field, .varint)
        writer.varint(value)
    }

    private static func string(_ field: UInt32, _ value: String, _ writer: inout ProtoWireWriter) {
        guard !value.isEmpty else { return }
        writer.tag(field, .lengthDelimited)
        writer.string(value)
    }

    /// SHA-256 over the previous hash and the record bytes.
    static func chainHash(previous: ChainDigest, record: UnsafeRawBufferPointer) -> ChainDigest {
        var hasher = SHA256()
        previous.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        hasher.update(bufferPointer: record)
        return ChainDigest(hasher.finalize())
    }

    /// Decodes a stored value read at `position`.
    static func decode(_ value: UnsafeRawBufferPointer, position: UInt64) throws(EventStoreError) -> RecordedEvent {
        guard value.count >= headerSize else {
            throw .corruptRecord(position: position, reason: "the value is \(value.count) bytes, shorter than its header")
        }
        guard value[0] == StoreKeys.recordFormatByte else {
            throw .corruptRecord(position: position, reason: "unknown record format byte \(value[0])")
        }
        do {
            return try EnvelopeDecoder.decode(
                UnsafeRawBufferPointer(rebasing: value[headerSize...]),
                hash: ChainDigest(unchecked: UnsafeRawBufferPointer(rebasing: value[1..<headerSize])))
        } catch {
            throw .corruptRecord(position: position, reason: "the record does not decode: \(error.reason)")
        }
    }

    /// True when `stored` carries the same caller-supplied content as `event` in `streamID`.
    static func sameContent(_ stored: RecordedEvent, _ event: NewEvent, streamID: String) -> Bool {
        stored.streamID == streamID && stored.type == event.type && stored.schemaVersion == event.schemaVersion
            && stored.payload == event.payload && stored.observedAt == event.observedAt
            && stored.correlationID == event.correlationID && stored.causationID == event.causationID
            && stored.actor == event.actor
    }
}
