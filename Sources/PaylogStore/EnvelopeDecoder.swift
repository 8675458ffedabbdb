import Foundation

/// Decodes the `EventRecord` protobuf (`Schema/store.proto`) straight from LMDB's mapped bytes.
///
/// Reading the envelope is the inner loop of every scan, replay and verification, and SwiftProtobuf's generic
/// decoder needed the record copied into an array, a message allocated and torn down, and the payload copied a
/// second time: 72 % of a scan (`perf`, `paylog bench --scenario scan`). This decoder walks the wire format once
/// with ``ProtoWireReader`` and builds the ``RecordedEvent`` directly; `EnvelopeDecoderTests` checks that it
/// accepts and refuses exactly what SwiftProtobuf does, on random, reordered, extended and damaged records.
enum EnvelopeDecoder {
    /// Decodes `record` (the protobuf bytes after the stored value's header); `hash` is the header's hash.
    ///
    /// With `compressed`, the payload must be a zstd frame (field 13) with its dictionary's number (field 14),
    /// found in `dictionaries`; it stays compressed until asked for (``RecordedEvent/payload``), or is
    /// decompressed here straight from `record` with `decompress` (for a fold, which reads every payload: it
    /// saves copying the frame). Without `compressed`, the payload is field 12 and field 13 is refused.
    static func decode(
        _ record: UnsafeRawBufferPointer, hash: ChainDigest, compressed: Bool = false, dictionaries: PayloadDictionaries? = nil,
        decompress: Bool = false
    ) throws(ProtoWireReader.Failure) -> RecordedEvent {
        var names = InternedNames()
        return try decode(
            record, hash: hash, compressed: compressed, dictionaries: dictionaries, decompress: decompress, names: &names)
    }

    /// Decodes `record` as ``decode(_:hash:compressed:dictionaries:decompress:)`` does, taking the type and actor
    /// strings from `names` when it holds them (a read loop keeps one for all its records).
    static func decode(
        _ record: UnsafeRawBufferPointer, hash: ChainDigest, compressed: Bool, dictionaries: PayloadDictionaries?,
        decompress: Bool, names: inout InternedNames
    ) throws(ProtoWireReader.Failure) -> RecordedEvent {
        var reader = ProtoWireReader(record)
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
        var frame: UnsafeRawBufferPointer?
        var dictionary: UInt64 = 0
        // The tags are checked here but read only when asked for (``StoredTags``): where they start, how many.
        var tagsStart: Int?
        var tagCount = 0
        var tagsDeclared = false
        var fieldAfterTags = false
        while true {
            let start = reader.offset
            guard let (field, wireType) = try reader.nextField() else { break }
            if field == 15 || field == 16 {
                if tagsStart == nil { tagsStart = start }
            } else if tagsStart != nil {
                fieldAfterTags = true
            }
            switch (field, wireType) {
            case (1, 2):
                let slice = try reader.lengthDelimited()
                guard slice.count == 16 else {
                    throw ProtoWireReader.Failure(reason: "the event id is \(slice.count) bytes, not 16")
                }
                id = UUID(uuid: (slice[0], slice[1], slice[2], slice[3], slice[4], slice[5], slice[6], slice[7],
                                 slice[8], slice[9], slice[10], slice[11], slice[12], slice[13], slice[14], slice[15]))
            case (2, 2): streamID = try reader.string("stream_id")
            case (3, 0): version = try reader.varint()
            case (4, 0): position = try reader.varint()
            case (5, 2): type = try name(&reader, "type", in: &names)
            case (6, 0): schemaVersion = UInt32(truncatingIfNeeded: try reader.varint())
            case (7, 0): recordedAt = Int64(bitPattern: try reader.varint())
            case (8, 0): observedAt = Int64(bitPattern: try reader.varint())
            case (9, 2): correlationID = try reader.string("correlation_id")
            case (10, 2): causationID = try reader.string("causation_id")
            case (11, 2): actor = try name(&reader, "actor", in: &names)
            case (12, 2): payload = Data(try reader.lengthDelimited())
            case (13, 2): frame = try reader.lengthDelimited()
            case (14, 0): dictionary = try reader.varint()
            case (15, 2):
                _ = try reader.utf8Bytes("tags")
                tagCount += 1
            case (16, 0): tagsDeclared = try reader.varint() != 0
            default: try reader.skip(wireType: wireType, field: field)
            }
        }
        // proto3: an absent `event_id` decodes as empty bytes.
        guard let id else { throw ProtoWireReader.Failure(reason: "the event id is 0 bytes, not 16") }
        let declared = tagsDeclared || tagCount > 0
        var storedTags: StoredTags {
            guard declared else { return StoredTags(nil) }
            return StoredTags(tagCount == 0 ? [] : StoredTags.tags(in: record))
        }
        let stored: StoredPayload
        let keptTags: StoredTags
        if compressed {
            guard let frame, payload.isEmpty else {
                throw ProtoWireReader.Failure(reason: "a compressed record without its frame (field 13), or with field 12 too")
            }
            guard dictionary <= UInt64(UInt32.max), let zstd = dictionaries?.dictionary(UInt32(dictionary)) else {
                throw ProtoWireReader.Failure(
                    reason: "its payload was compressed with dictionary \(dictionary), which the store does not hold")
            }
            if decompress {
                do {
                    stored = StoredPayload(try zstd.decompress(frame))
                } catch {
                    throw ProtoWireReader.Failure(reason: "its compressed payload is damaged: \(error.description)")
                }
                keptTags = storedTags
            } else if tagCount > 0, !fieldAfterTags, let tagsStart {
                // The tag fields end the record: copied with the frame, read when asked for.
                (stored, keptTags) = StoredPayload.framed(
                    frame, dictionary: zstd, tags: UnsafeRawBufferPointer(rebasing: record[tagsStart...]))
            } else {
                stored = StoredPayload(frame: frame, dictionary: zstd)
                keptTags = storedTags
            }
        } else {
            guard frame == nil, dictionary == 0 else {
                throw ProtoWireReader.Failure(reason: "a compressed payload (field 13 or 14) in a record of format byte 1")
            }
            stored = StoredPayload(payload)
            keptTags = storedTags
        }
        return RecordedEvent(
            id: id, streamID: streamID, version: version, position: position, type: type, schemaVersion: schemaVersion,
            recordedAt: Timestamp(microseconds: recordedAt), observedAt: observedAt.map { Timestamp(microseconds: $0) },
            correlationID: correlationID, causationID: causationID, actor: actor, storedTags: keptTags,
            storedPayload: stored, hash: hash)
    }


    /// A length-delimited field read as UTF-8 text through `names`, as ``ProtoWireReader/string(_:)`` reads it.
    @inline(__always)
    private static func name(
        _ reader: inout ProtoWireReader, _ field: String, in names: inout InternedNames
    ) throws(ProtoWireReader.Failure) -> String {
        guard let text = names.name(try reader.lengthDelimited()) else {
            throw ProtoWireReader.Failure(reason: "\(field) is not valid UTF-8")
        }
        return text
    }
}
