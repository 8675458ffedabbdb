import Crypto
import Foundation

/// Encodes events into the stored value layout and decodes them back. See Docs/storage.md.
///
/// Value layout: format byte `0x01` | SHA-256 hash (32 bytes) | `EventRecord` protobuf bytes.
enum RecordCodec {
    static let headerSize = 33

    /// The stored value of `event` with the envelope the store assigned, and its chain hash (SHA-256 over
    /// `previous` and the record bytes), written in one buffer of its exact size.
    ///
    /// The record bytes are exactly what protobuf writes for `EventRecord` (fields in number order, proto3
    /// defaults left out, `observed_at_us` present whenever set), so imports recompute the same hashes and any
    /// protobuf library reads the records; `RecordCodecTests` hold it to SwiftProtobuf.
    static func storedValue(
        _ event: NewEvent, streamID: String, version: UInt64, position: UInt64, recordedAt: Timestamp, previous: ChainDigest
    ) -> (value: [UInt8], hash: ChainDigest) {
        let size = storedSize(event, streamID: streamID, version: version, position: position, recordedAt: recordedAt)
        var hash = ChainDigest.genesis
        let value = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            hash = writeStoredValue(
                event, streamID: streamID, version: version, position: position, recordedAt: recordedAt,
                previous: previous, into: UnsafeMutableRawBufferPointer(buffer))
            initialized = size
        }
        return (value, hash)
    }

    /// The size in bytes of the stored value ``storedValue(_:streamID:version:position:recordedAt:previous:)``
    /// writes: what to reserve for it.
    static func storedSize(
        _ event: NewEvent, streamID: String, version: UInt64, position: UInt64, recordedAt: Timestamp
    ) -> Int {
        var sizer = WireSizer()
        writeRecord(event, streamID: streamID, version: version, position: position, recordedAt: recordedAt, to: &sizer)
        return headerSize + sizer.count
    }

    /// Writes the stored value of `event` into `buffer`, which must be exactly
    /// ``storedSize(_:streamID:version:position:recordedAt:)`` bytes (an LMDB page reserved for it, or an array's
    /// capacity), and returns its chain hash, computed over the bytes in place.
    static func writeStoredValue(
        _ event: NewEvent, streamID: String, version: UInt64, position: UInt64, recordedAt: Timestamp,
        previous: ChainDigest, into buffer: UnsafeMutableRawBufferPointer
    ) -> ChainDigest {
        var writer = WireSpanWriter(buffer)
        writer.byte(StoreKeys.recordFormatByte)
        ChainDigest.genesis.withUnsafeBytes { writer.raw($0) }  // the hash's place, filled in below
        writeRecord(event, streamID: streamID, version: version, position: position, recordedAt: recordedAt, to: &writer)
        precondition(writer.count == buffer.count, "a record of \(writer.count) bytes was reserved \(buffer.count)")
        let hash = chainHash(previous: previous, record: UnsafeRawBufferPointer(rebasing: writer.written[headerSize...]))
        hash.withUnsafeBytes { writer.overwrite(at: 1, with: $0) }
        return hash
    }

    /// The `EventRecord` fields of `event`, in number order, into `sink`.
    @inline(__always)
    private static func writeRecord<Sink: WireSink>(
        _ event: NewEvent, streamID: String, version: UInt64, position: UInt64, recordedAt: Timestamp,
        to sink: inout Sink
    ) {
        sink.tag(1, .lengthDelimited)
        withUnsafeBytes(of: event.id.uuid) { sink.lengthDelimited($0) }
        string(2, streamID, &sink)
        varint(3, version, &sink)
        varint(4, position, &sink)
        string(5, event.type, &sink)
        varint(6, UInt64(event.schemaVersion), &sink)
        varint(7, UInt64(bitPattern: recordedAt.microseconds), &sink)
        if let observed = event.observedAt {
            sink.tag(8, .varint)
            sink.varint(UInt64(bitPattern: observed.microseconds))
        }
        string(9, event.correlationID, &sink)
        string(10, event.causationID, &sink)
        string(11, event.actor, &sink)
        if !event.payload.isEmpty {
            sink.tag(12, .lengthDelimited)
            event.payload.withUnsafeBytes { sink.lengthDelimited($0) }
        }
    }

    @inline(__always)
    private static func varint<Sink: WireSink>(_ field: UInt32, _ value: UInt64, _ sink: inout Sink) {
        guard value != 0 else { return }
        sink.tag(field, .varint)
        sink.varint(value)
    }

    @inline(__always)
    private static func string<Sink: WireSink>(_ field: UInt32, _ value: String, _ sink: inout Sink) {
        guard !value.isEmpty else { return }
        sink.tag(field, .lengthDelimited)
        sink.string(value)
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
