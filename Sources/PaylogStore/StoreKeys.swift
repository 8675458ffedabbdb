import Foundation

/// The byte layout of every LMDB key and small value the store writes. See Docs/storage.md.
enum StoreKeys {
    /// The largest stream id in UTF-8 bytes; keeps `versions` keys under LMDB's 511-byte key limit.
    static let maximumStreamIDBytes = 200

    /// `meta` key of the chain head: position (8 bytes BE) + hash (32 bytes).
    static let head: [UInt8] = Array("head".utf8)
    /// `meta` key of the log format: UInt32 BE.
    static let format: [UInt8] = Array("format".utf8)
    /// The log format this build writes and reads. Format 1 kept the stream index as one `streams` entry per
    /// event; opening such a store migrates it (``FormatMigration``). Format 3 added records whose payload is
    /// stored compressed (``compressedRecordFormatByte``) and the `payload-dictionary/` entries they need; a
    /// format-2 store becomes format 3 on open, its records untouched. Format 4 dropped the `heads` database (stream
    /// id → last version and position): a stream's last `versions` entry says the same (``StreamTail``), and an
    /// append no longer writes it; opening a store of formats 1–3 deletes `heads`. Format 5 added the tags an
    /// appender declares (record fields 15 and 16) and their index, `tag-index`; a format-4 store becomes format 5 on
    /// open, its records untouched (they declare no tags).
    static let currentFormat: UInt32 = 5
    /// The oldest log format this build migrates from.
    static let oldestMigratableFormat: UInt32 = 1
    /// The first byte of an `events` value whose payload is stored as the caller gave it (field 12).
    static let recordFormatByte: UInt8 = 1
    /// The first byte of an `events` value whose payload is stored as a zstd frame (fields 13 and 14); its chain
    /// hash covers the record as if the payload were stored as given.
    static let compressedRecordFormatByte: UInt8 = 2
    /// The prefix of the `meta` keys holding the dictionaries compressed payloads need; the key ends with the
    /// dictionary's number (UInt32 BE, from 1), the value is the dictionary's bytes.
    static let payloadDictionaryPrefix: [UInt8] = Array("payload-dictionary/".utf8)

    /// The `meta` key of payload dictionary `number`.
    static func payloadDictionary(_ number: UInt32) -> [UInt8] {
        payloadDictionaryPrefix + [UInt8(number >> 24), UInt8(number >> 16 & 0xff), UInt8(number >> 8 & 0xff), UInt8(number & 0xff)]
    }

    @inline(__always)
    static func bigEndian(_ value: UInt64) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    /// The position an `events` key holds; a key that is not 8 bytes (a damaged file: LMDB does not check its own
    /// pages) is an error naming what it is, where reading it as 8 bytes trapped, or read past it.
    @inline(__always)
    static func position(ofEventKey key: UnsafeRawBufferPointer) throws(EventStoreError) -> UInt64 {
        guard key.count == 8 else {
            throw .corruptIndex(
                name: "events",
                reason: "a key of \(key.count) bytes where every key is an 8-byte position: the file is damaged; "
                    + "restore the store from a backup or an export")
        }
        return readUInt64(key)
    }

    @inline(__always)
    static func readUInt64(_ bytes: UnsafeRawBufferPointer, at offset: Int = 0) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + 8) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    static func readUInt64(_ bytes: [UInt8], at offset: Int = 0) -> UInt64 {
        bytes.withUnsafeBytes { readUInt64($0, at: offset) }
    }

    @inline(__always)
    static func readUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int = 0) -> UInt32 {
        var value: UInt32 = 0
        for index in offset..<(offset + 4) { value = value << 8 | UInt32(bytes[index]) }
        return value
    }

    /// `events` key: the global position, big-endian so keys sort in log order.
    static func event(_ position: UInt64) -> [UInt8] { bigEndian(position) }

    /// How many versions of a stream one `versions` entry holds.
    static let versionsPerChunk: UInt64 = 64

    /// Where version `version` (1-based) of a stream lies in `versions`: the chunk number in its key, and its
    /// index among the chunk's positions.
    @inline(__always)
    static func chunk(of version: UInt64) -> (chunk: UInt32, index: Int) {
        (UInt32(truncatingIfNeeded: (version - 1) / versionsPerChunk), Int((version - 1) % versionsPerChunk))
    }

    /// The first version chunk `chunk` holds.
    @inline(__always)
    static func firstVersion(of chunk: UInt32) -> UInt64 { UInt64(chunk) * versionsPerChunk + 1 }

    /// The size of a `versions` key for a stream id of `idBytes` UTF-8 bytes.
    @inline(__always)
    static func versionsKeySize(idBytes: Int) -> Int { idBytes + 5 }

    /// Writes the `versions` key of `chunk` of the stream whose id is `id` into `key` (exactly
    /// ``versionsKeySize(idBytes:)`` bytes): the stream id, a NUL, the chunk number u32 big-endian.
    @inline(__always)
    static func writeVersionsKey(id: UnsafeRawBufferPointer, chunk: UInt32, into key: UnsafeMutableRawBufferPointer) {
        key.copyMemory(from: id)
        key[id.count] = 0
        key.storeBytes(of: chunk.bigEndian, toByteOffset: id.count + 1, as: UInt32.self)
    }

    /// The `versions` key of `chunk` of stream `streamID`.
    static func versionsKey(_ streamID: String, chunk: UInt32) -> [UInt8] {
        versionsKey(id: Array(streamID.utf8), chunk: chunk)
    }

    /// The `versions` key of `chunk` of the stream whose id is the UTF-8 bytes `id`.
    static func versionsKey(id: [UInt8], chunk: UInt32) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: versionsKeySize(idBytes: id.count)) { key, initialized in
            id.withUnsafeBytes { writeVersionsKey(id: $0, chunk: chunk, into: UnsafeMutableRawBufferPointer(key)) }
            initialized = key.count
        }
    }

    /// `ids` key: the event id's 16 raw UUID bytes.
    static func eventID(_ id: UUID) -> [UInt8] { withUnsafeBytes(of: id.uuid) { Array($0) } }

    /// The largest tag in UTF-8 bytes; keeps `tag-index` keys under LMDB's 511-byte key limit.
    static let maximumTagBytes = 480

    /// Returns the reason a tag is unusable, or nil.
    static func problem(withTag tag: String) -> String? {
        let count = tag.utf8.count
        if count == 0 { return "it is empty" }
        if count > maximumTagBytes { return "it is \(count) bytes long, over \(maximumTagBytes)" }
        return nil
    }

    /// Returns the reason a stream id is unusable, or nil.
    static func problem(with streamID: String) -> String? {
        let count = streamID.utf8.count
        if count == 0 { return "it is empty" }
        if count > maximumStreamIDBytes { return "it is \(count) bytes long, over \(maximumStreamIDBytes)" }
        if streamID.utf8.contains(0) { return "it contains a NUL byte" }
        return nil
    }
}
