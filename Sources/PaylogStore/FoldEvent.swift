import Foundation
import ZstdKit

/// An event as a rebuild's fold reads it: the envelope fields a projection folds by, read in place from the
/// mapped log, and the payload decompressed only when asked for (``payload()``).
///
/// A rebuild reads every event of the log once. Building a ``RecordedEvent`` for each — its id, five strings and
/// a freshly allocated payload — was about a fifth of a replay's fold (`perf`, Docs/performance.md); a fold needs
/// none of that for most events. Whatever else a projection wants, ``recorded()`` decodes in full.
///
/// Borrowed: it points into a read transaction's pages and a decompression buffer of the fold's, so it is valid
/// only during the ``StreamFoldingProjection/fold(_:into:rows:)-(FoldEvent,_,_)`` call it is handed to, and must
/// not be kept. Its references to the fold's buffer and the store's dictionaries are `Unmanaged`, borrowed when
/// used, for the same reason: both outlive every fold call, so neither a copy of the event (as generic code
/// makes) nor reading a payload retains anything — retaining the dictionary both fold threads share made its
/// reference count a cache line the two cores took from each other.
public struct FoldEvent {
    /// The stream the event belongs to.
    public let streamID: String
    /// 1-based, gap-free position within the stream.
    public let version: UInt64
    /// 1-based, gap-free position in the whole log.
    public let position: UInt64
    /// The version of the payload schema for the event's type.
    public let schemaVersion: UInt32
    /// When the store committed the event (UTC).
    public let recordedAt: Timestamp
    /// Business time supplied by the caller, if any.
    public let observedAt: Timestamp?
    /// Whether its appender declared its tags (``RecordedEvent/tags`` is then not nil); the tags themselves are
    /// not read here (``recorded()`` reads them).
    public let declaresTags: Bool
    /// The event type name's UTF-8 bytes (compare with ``hasType(_:)``; ``type`` builds the string).
    private let typeBytes: UnsafeRawBufferPointer
    /// The payload as stored in the record, or its zstd frame.
    private let storedPayload: UnsafeRawBufferPointer
    /// The dictionary the frame was compressed with; nil for a payload stored as appended.
    private let dictionary: Unmanaged<ZstdDictionary>?
    /// Where a compressed payload is decompressed to.
    private let scratch: Unmanaged<FoldScratch>
    /// The stored value, for ``recorded()``.
    private let value: UnsafeRawBufferPointer
    private let dictionaries: Unmanaged<PayloadDictionaries>

    /// Reads the envelope of the stored `value` at `position`, checking what ``RecordCodec/decode(_:position:dictionaries:decompress:)``
    /// checks of the fields read here; the correlation, causation and actor strings and the event id are skipped
    /// (``recorded()`` reads and checks them). `knownStreamID` is asked for the stream id's bytes first: a fold
    /// gives back the id of a stream it holds open (it was checked when the stream was opened), so that no string
    /// is built per event; for nil the bytes are checked as UTF-8 and made into a new string.
    init(
        _ value: UnsafeRawBufferPointer, position: UInt64, dictionaries: PayloadDictionaries, scratch: FoldScratch,
        knownStreamID: (UnsafeRawBufferPointer) -> String? = { _ in nil }
    ) throws(EventStoreError) {
        try self.init(
            value, position: position, dictionaries: .passUnretained(dictionaries), scratch: .passUnretained(scratch),
            knownStreamID: knownStreamID)
    }

    /// Reads the envelope as ``init(_:position:dictionaries:scratch:knownStreamID:)`` does, given the dictionaries
    /// and the scratch unretained: a fold's loop makes these once, so that no event retains the dictionaries its
    /// two threads share (see ``FoldScratch/dictionary(_:in:)``). Both must outlive the event.
    init(
        _ value: UnsafeRawBufferPointer, position: UInt64, dictionaries: Unmanaged<PayloadDictionaries>,
        scratch: Unmanaged<FoldScratch>, knownStreamID: (UnsafeRawBufferPointer) -> String? = { _ in nil }
    ) throws(EventStoreError) {
        func corrupt(_ reason: String) -> EventStoreError { .corruptRecord(position: position, reason: reason) }
        guard value.count >= RecordCodec.headerSize else {
            throw corrupt("the value is \(value.count) bytes, shorter than its header")
        }
        let compressed = value[0] == StoreKeys.compressedRecordFormatByte
        guard compressed || value[0] == StoreKeys.recordFormatByte else { throw corrupt("unknown record format byte \(value[0])") }
        var reader = ProtoWireReader(UnsafeRawBufferPointer(rebasing: value[RecordCodec.headerSize...]))
        var idCount = 0
        var streamID: String?
        var version: UInt64 = 0
        var storedPosition: UInt64 = 0
        var type = UnsafeRawBufferPointer(start: nil, count: 0)
        var schemaVersion: UInt32 = 0
        var recordedAt: Int64 = 0
        var observedAt: Int64?
        var payload: UnsafeRawBufferPointer?
        var frame: UnsafeRawBufferPointer?
        var dictionaryNumber: UInt64 = 0
        var declaresTags = false
        do throws(ProtoWireReader.Failure) {
            while let (field, wireType) = try reader.nextField() {
                switch (field, wireType) {
                case (1, 2): idCount = try reader.lengthDelimited().count
                case (2, 2):
                    let bytes = try reader.lengthDelimited()
                    if let known = knownStreamID(bytes) {
                        streamID = known
                    } else if let id = String(utf8Bytes: bytes) {
                        streamID = id
                    } else {
                        throw ProtoWireReader.Failure(reason: "stream_id is not valid UTF-8")
                    }
                case (3, 0): version = try reader.varint()
                case (4, 0): storedPosition = try reader.varint()
                case (5, 2): type = try reader.lengthDelimited()
                case (6, 0): schemaVersion = UInt32(truncatingIfNeeded: try reader.varint())
                case (7, 0): recordedAt = Int64(bitPattern: try reader.varint())
                case (8, 0): observedAt = Int64(bitPattern: try reader.varint())
                case (12, 2): payload = try reader.lengthDelimited()
                case (13, 2): frame = try reader.lengthDelimited()
                case (14, 0): dictionaryNumber = try reader.varint()
                case (15, 2):
                    declaresTags = true
                    try reader.skip(wireType: wireType, field: field)
                case (16, 0): declaresTags = try reader.varint() != 0 || declaresTags
                default: try reader.skip(wireType: wireType, field: field)
                }
            }
        } catch {
            throw corrupt("the record does not decode: \(error.reason)")
        }
        guard idCount == 16 else { throw corrupt("the record does not decode: the event id is \(idCount) bytes, not 16") }
        if compressed {
            guard let frame, payload == nil else {
                throw corrupt("the record does not decode: a compressed record without its frame (field 13), or with field 12 too")
            }
            let zstd = dictionaryNumber > UInt64(UInt32.max) ? nil : scratch._withUnsafeGuaranteedRef { scratch in
                dictionaries._withUnsafeGuaranteedRef { scratch.dictionary(UInt32(dictionaryNumber), in: $0) }
            }
            guard let zstd else {
                throw corrupt("its payload was compressed with dictionary \(dictionaryNumber), which the store does not hold")
            }
            storedPayload = frame
            dictionary = zstd
        } else {
            guard frame == nil, dictionaryNumber == 0 else {
                throw corrupt("the record does not decode: a compressed payload (field 13 or 14) in a record of format byte 1")
            }
            storedPayload = payload ?? UnsafeRawBufferPointer(start: nil, count: 0)
            dictionary = nil
        }
        self.streamID = streamID ?? ""
        self.version = version
        self.position = storedPosition
        self.typeBytes = type
        self.schemaVersion = schemaVersion
        self.recordedAt = Timestamp(microseconds: recordedAt)
        self.observedAt = observedAt.map { Timestamp(microseconds: $0) }
        self.declaresTags = declaresTags
        self.scratch = scratch
        self.value = value
        self.dictionaries = dictionaries
    }

    /// True when the event's type is `name`, compared byte for byte without building a string.
    public func hasType(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { name in
            name.count == typeBytes.count && (name.isEmpty || memcmp(name.baseAddress!, typeBytes.baseAddress!, name.count) == 0)
        }
    }

    /// True when the event's type is `name`, compared byte for byte: no string is built or retained, so a fold
    /// can tell the kinds it knows apart per event for the price of a length test and a `memcmp`.
    public func hasType(_ name: StaticString) -> Bool {
        name.utf8CodeUnitCount == typeBytes.count
            && (typeBytes.isEmpty || memcmp(name.utf8Start, typeBytes.baseAddress!, typeBytes.count) == 0)
    }

    /// The length of the event's type name in UTF-8 bytes.
    public var typeByteCount: Int { typeBytes.count }

    /// The event type name.
    public var type: String { String(decoding: typeBytes, as: UTF8.self) }

    /// The payload exactly as appended, decompressed first when the store keeps it compressed. The bytes are
    /// valid only during the fold call the event was handed to, and only until the next ``payload()`` of the
    /// same fold (a compressed payload is decompressed into one buffer the fold reuses).
    /// - Throws: ``EventStoreError/corruptRecord(position:reason:)`` when a compressed payload's bytes are damaged.
    public func payload() throws(EventStoreError) -> UnsafeRawBufferPointer {
        guard let dictionary else { return storedPayload }
        do {
            // Borrowed without retaining (see `FoldScratch.dictionary(_:in:)`): the store and the fold hold both.
            // (`_withUnsafeGuaranteedRef` rethrows untyped errors; a Result keeps zstd's typed one.)
            let result = dictionary._withUnsafeGuaranteedRef { dictionary in
                scratch._withUnsafeGuaranteedRef { scratch in
                    Result { () throws(ZstdError) in try dictionary.decompress(storedPayload, reusing: &scratch.buffer) }
                }
            }
            return try result.get()
        } catch {
            throw .corruptRecord(position: position, reason: "its compressed payload is damaged: \(error.description)")
        }
    }

    /// The whole event, decoded as ``EventStore`` reads it (payload left compressed until asked for).
    public func recorded() throws(EventStoreError) -> RecordedEvent {
        try RecordCodec.decode(value, position: position, dictionaries: dictionaries.takeUnretainedValue())
    }
}
