import Crypto
import Foundation

/// Encodes events into the stored value layout and decodes them back. See Docs/storage.md.
///
/// Value layout: format byte | SHA-256 hash (32 bytes) | `EventRecord` protobuf bytes. Format byte `0x01`: the
/// payload as appended (field 12). Format byte `0x02`: the payload as a zstd frame (field 13) and its dictionary's
/// number (field 14). The declared tags (fields 15 and 16) follow the payload's fields in both. The hash always
/// covers the *canonical* record — the `0x01` form — so it does not depend on how (or whether) the payload was
/// compressed: an import into another store recomputes the same hashes.
enum RecordCodec {
    static let headerSize = 33

    /// A compressed payload: its zstd frame and the number of the dictionary it was compressed with.
    typealias Frame = (frame: UnsafeRawBufferPointer, dictionary: UInt32)

    /// The stored value of `event` with the envelope the store assigned, and its chain hash (SHA-256 over
    /// `previous` and the canonical record bytes), written in one buffer of its exact size; the payload is
    /// compressed with `dictionaries`' current dictionary when that saves bytes.
    ///
    /// The record bytes are exactly what protobuf writes for `EventRecord` (fields in number order, proto3
    /// defaults left out, `observed_at_us` present whenever set), so imports recompute the same hashes and any
    /// protobuf library reads the records; `RecordCodecTests` hold it to SwiftProtobuf.
    static func storedValue(
        _ event: NewEvent, streamID: String, version: UInt64, position: UInt64, recordedAt: Timestamp, previous: ChainDigest,
        dictionaries: PayloadDictionaries
    ) -> (value: [UInt8], hash: ChainDigest) {
        event.payload.withUnsafeBytes { payload in
            dictionaries.withCompressed(payload) { compressed in
                let size = storedSize(
                    event, streamID: streamID, version: version, position: position, recordedAt: recordedAt, compressed: compressed)
                var hash = ChainDigest.genesis
                let value = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
                    hash = writeStoredValue(
                        event, streamID: streamID, version: version, position: position, recordedAt: recordedAt,
                        compressed: compressed, previous: previous, into: UnsafeMutableRawBufferPointer(buffer))
                    initialized = size
                }
                return (value, hash)
            }
        }
    }

    /// The size in bytes of the stored value
    /// ``writeStoredValue(_:streamID:version:position:recordedAt:compressed:previous:into:)`` writes: what to
    /// reserve for it.
    static func storedSize(
        _ event: NewEvent, streamID: String, version: UInt64, position: UInt64, recordedAt: Timestamp, compressed: Frame?
    ) -> Int {
        var sizer = WireSizer()
        writeEnvelope(event, streamID: streamID, version: version, position: position, recordedAt: recordedAt, to: &sizer)
        writePayload(event, compressed: compressed, to: &sizer)
        writeTags(event, to: &sizer)
        return headerSize + sizer.count
    }

    /// Writes the stored value of `event` into `buffer`, which must be exactly
    /// ``storedSize(_:streamID:version:position:recordedAt:compressed:)`` bytes (an LMDB page reserved for it, or
    /// an array's capacity), and returns its chain hash, computed over the bytes in place (and, for a compressed
    /// payload, over the payload as appended).
    static func writeStoredValue(
        _ event: NewEvent, streamID: String, version: UInt64, position: UInt64, recordedAt: Timestamp, compressed: Frame?,
        previous: ChainDigest, into buffer: UnsafeMutableRawBufferPointer
    ) -> ChainDigest {
        var writer = WireSpanWriter(buffer)
        writer.byte(compressed == nil ? StoreKeys.recordFormatByte : StoreKeys.compressedRecordFormatByte)
        ChainDigest.genesis.withUnsafeBytes { writer.raw($0) }  // the hash's place, filled in below
        writeEnvelope(event, streamID: streamID, version: version, position: position, recordedAt: recordedAt, to: &writer)
        let envelopeEnd = writer.count
        writePayload(event, compressed: compressed, to: &writer)
        let payloadEnd = writer.count
        writeTags(event, to: &writer)
        precondition(writer.count == buffer.count, "a record of \(writer.count) bytes was reserved \(buffer.count)")
        let hash: ChainDigest
        if compressed == nil {
            hash = chainHash(previous: previous, record: UnsafeRawBufferPointer(rebasing: writer.written[headerSize...]))
        } else {
            hash = event.payload.withUnsafeBytes { payload in
                chainHash(
                    previous: previous, envelope: UnsafeRawBufferPointer(rebasing: writer.written[headerSize..<envelopeEnd]),
                    payload: payload, tail: UnsafeRawBufferPointer(rebasing: writer.written[payloadEnd...]))
            }
        }
        hash.withUnsafeBytes { writer.overwrite(at: 1, with: $0) }
        return hash
    }

    /// The `EventRecord` fields 1–11 of `event`, in number order, into `sink`.
    @inline(__always)
    private static func writeEnvelope<Sink: WireSink>(
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
    }

    /// The payload's fields: 12 as appended, or 13 and 14 for a compressed one.
    @inline(__always)
    private static func writePayload<Sink: WireSink>(_ event: NewEvent, compressed: Frame?, to sink: inout Sink) {
        if let compressed {
            sink.tag(13, .lengthDelimited)
            sink.lengthDelimited(compressed.frame)
            varint(14, UInt64(compressed.dictionary), &sink)
        } else if !event.payload.isEmpty {
            sink.tag(12, .lengthDelimited)
            event.payload.withUnsafeBytes { sink.lengthDelimited($0) }
        }
    }

    /// The declared tags' fields, 15 and 16, after the payload's; nothing for an event that declares none.
    @inline(__always)
    private static func writeTags<Sink: WireSink>(_ event: NewEvent, to sink: inout Sink) {
        guard let tags = event.tags else { return }
        for tag in tags {
            sink.tag(15, .lengthDelimited)
            sink.string(tag)
        }
        sink.tag(16, .varint)
        sink.varint(1)
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

    /// SHA-256 over the previous hash and the canonical record of a compressed one: its envelope fields
    /// (1–11, as stored), field 12 holding `payload` as appended, then the fields after the payload's (`tail`: the
    /// declared tags, 15 and 16, as stored).
    static func chainHash(
        previous: ChainDigest, envelope: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer, tail: UnsafeRawBufferPointer
    ) -> ChainDigest {
        var hasher = SHA256()
        previous.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        hasher.update(bufferPointer: envelope)
        if !payload.isEmpty {
            // Field 12's tag (12 << 3 | 2) and the payload's length as a varint: at most 1 + 10 bytes.
            withUnsafeTemporaryAllocation(byteCount: 11, alignment: 1) { header in
                var writer = WireSpanWriter(header)
                writer.tag(12, .lengthDelimited)
                writer.varint(UInt64(payload.count))
                hasher.update(bufferPointer: writer.written)
            }
            hasher.update(bufferPointer: payload)
        }
        if !tail.isEmpty { hasher.update(bufferPointer: tail) }
        return ChainDigest(hasher.finalize())
    }

    /// The chain hash of the stored `value` at `position` recomputed from its bytes (decompressing a compressed
    /// payload), after `previous`.
    static func recomputeHash(
        _ value: UnsafeRawBufferPointer, position: UInt64, previous: ChainDigest, dictionaries: PayloadDictionaries
    ) throws(EventStoreError) -> ChainDigest {
        guard value.count >= headerSize else {
            throw .corruptRecord(position: position, reason: "the value is \(value.count) bytes, shorter than its header")
        }
        let record = UnsafeRawBufferPointer(rebasing: value[headerSize...])
        switch value[0] {
        case StoreKeys.recordFormatByte:
            return chainHash(previous: previous, record: record)
        case StoreKeys.compressedRecordFormatByte:
            // The envelope fields come first, then the payload's (13, 14), then the tags' (15, 16).
            let (envelopeEnd, frame, number, tailStart) = try compressedParts(record, position: position)
            guard number <= UInt64(UInt32.max), let dictionary = dictionaries.dictionary(UInt32(number)) else {
                throw .corruptRecord(
                    position: position, reason: "its payload was compressed with dictionary \(number), which the store does not hold")
            }
            let payload: Data
            do {
                payload = try dictionary.decompress(frame)
            } catch {
                throw .corruptRecord(position: position, reason: "its compressed payload is damaged: \(error.description)")
            }
            return payload.withUnsafeBytes { payload in
                chainHash(
                    previous: previous, envelope: UnsafeRawBufferPointer(rebasing: record[..<envelopeEnd]), payload: payload,
                    tail: UnsafeRawBufferPointer(rebasing: record[tailStart...]))
            }
        default:
            throw .corruptRecord(position: position, reason: "unknown record format byte \(value[0])")
        }
    }

    /// A compressed record's parts, read in one walk of its fields: where its envelope fields end (field 13
    /// starts), its frame, its dictionary's number, and where the fields after the payload's begin (15 on; the
    /// record's end when there are none).
    private static func compressedParts(
        _ record: UnsafeRawBufferPointer, position: UInt64
    ) throws(EventStoreError) -> (envelopeEnd: Int, frame: UnsafeRawBufferPointer, dictionary: UInt64, tailStart: Int) {
        var reader = ProtoWireReader(record)
        var envelopeEnd: Int?
        var tailStart: Int?
        var frame: UnsafeRawBufferPointer?
        var dictionary: UInt64 = 0
        do {
            while true {
                let start = reader.offset
                guard let (field, wireType) = try reader.nextField() else { break }
                if field >= 12, envelopeEnd == nil { envelopeEnd = start }
                if field >= 15, tailStart == nil { tailStart = start }
                switch (field, wireType) {
                case (13, 2): frame = try reader.lengthDelimited()
                case (14, 0): dictionary = try reader.varint()
                default: try reader.skip(wireType: wireType, field: field)
                }
            }
        } catch {
            throw .corruptRecord(position: position, reason: "the record does not decode: \(error.reason)")
        }
        guard let envelopeEnd, let frame else {
            throw .corruptRecord(position: position, reason: "a compressed record without its payload's fields")
        }
        return (envelopeEnd, frame, dictionary, tailStart ?? record.count)
    }

    /// Decodes a stored value read at `position`; a compressed payload stays compressed until asked for, or is
    /// decompressed at once with `decompress` (when every payload will be read, as by a fold).
    static func decode(
        _ value: UnsafeRawBufferPointer, position: UInt64, dictionaries: PayloadDictionaries, decompress: Bool = false
    ) throws(EventStoreError) -> RecordedEvent {
        var names = InternedNames()
        return try decode(value, position: position, dictionaries: dictionaries, decompress: decompress, names: &names)
    }

    /// Decodes `value` as ``decode(_:position:dictionaries:decompress:)`` does, with the type and actor strings
    /// a read loop's `names` holds already.
    static func decode(
        _ value: UnsafeRawBufferPointer, position: UInt64, dictionaries: PayloadDictionaries, decompress: Bool = false,
        names: inout InternedNames
    ) throws(EventStoreError) -> RecordedEvent {
        guard value.count >= headerSize else {
            throw .corruptRecord(position: position, reason: "the value is \(value.count) bytes, shorter than its header")
        }
        let compressed = value[0] == StoreKeys.compressedRecordFormatByte
        guard compressed || value[0] == StoreKeys.recordFormatByte else {
            throw .corruptRecord(position: position, reason: "unknown record format byte \(value[0])")
        }
        do {
            return try EnvelopeDecoder.decode(
                UnsafeRawBufferPointer(rebasing: value[headerSize...]),
                hash: ChainDigest(unchecked: UnsafeRawBufferPointer(rebasing: value[1..<headerSize])),
                compressed: compressed, dictionaries: dictionaries, decompress: decompress, names: &names)
        } catch {
            throw .corruptRecord(position: position, reason: "the record does not decode: \(error.reason)")
        }
    }

    /// True when `stored` carries the same caller-supplied content as `event` in `streamID`. Tags are compared
    /// only when both declare them: an event recorded before log format 5 declared none, and the same event
    /// appended again by a newer appender (a retry across an upgrade) is the same event. The actor (who recorded
    /// it) is not compared: the same observation recorded through two channels at once (`paylog ingest` and the
    /// server, say) is one event, the first recorder's, not a conflict.
    static func sameContent(_ stored: RecordedEvent, _ event: NewEvent, streamID: String) throws(EventStoreError) -> Bool {
        guard stored.streamID == streamID, stored.type == event.type, stored.schemaVersion == event.schemaVersion,
              stored.observedAt == event.observedAt, stored.correlationID == event.correlationID,
              stored.causationID == event.causationID,
              stored.tags == nil || event.tags == nil || stored.tags == event.tags
        else { return false }
        return try stored.payload == event.payload
    }
}
