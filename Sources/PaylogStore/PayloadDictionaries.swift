import Foundation
import LMDBKit
import ZstdKit

/// The zstd dictionaries of one store's compressed payloads, and the one new payloads are compressed with.
///
/// Dictionaries 1, 2, … live in `meta` (``StoreKeys/payloadDictionary(_:)``), written in the transaction that
/// opens the store with a dictionary it does not hold yet, never changed or removed afterwards: a compressed record
/// names its dictionary, and needs it to be read. New payloads use the dictionary given at open, else the newest
/// stored. A store that holds none compresses nothing: without a dictionary, zstd's fixed cost per frame (about
/// 0.6 µs) buys little on records of a few hundred bytes. Number 0 (plain zstd, never stored) is read but not
/// written. See Docs/storage.md.
final class PayloadDictionaries: Sendable {
    /// Every dictionary by number, 0 included.
    private let byNumber: [UInt32: ZstdDictionary]
    /// The number of the dictionary new payloads are compressed with.
    let current: UInt32
    /// The dictionary numbered `current`, which nearly every record of a store names: found without hashing.
    private let currentDictionary: ZstdDictionary
    /// The compression context of the writer thread, used under `compressorLock` (never contended: only the
    /// writer thread compresses; the lock makes that a guarantee rather than a convention).
    nonisolated(unsafe) private let compressor: ZstdCompressor
    private let compressorLock = NSLock()

    /// Payloads shorter than this are stored as given: a frame's header would eat most of the saving.
    static let minimumCompressedSize = 32
    /// A frame is kept only when it is at least this much shorter than the payload (it costs field 14, 2 bytes).
    static let minimumSaving = 4

    /// Whether new payloads are compressed at all: only with a dictionary.
    private let compresses: Bool

    /// Dictionaries that never compress: for encoding records exactly as format 2 did.
    static func plain() throws(EventStoreError) -> PayloadDictionaries {
        try PayloadDictionaries(byNumber: [0: dictionary(bytes: [], number: 0)], current: 0, compresses: false)
    }

    /// Dictionaries `stored` (by number, besides dictionary 0), compressing new payloads with `current`.
    static func inMemory(_ stored: [UInt32: [UInt8]], current: UInt32) throws(EventStoreError) -> PayloadDictionaries {
        var byNumber = [UInt32(0): try dictionary(bytes: [], number: 0)]
        for (number, bytes) in stored { byNumber[number] = try dictionary(bytes: bytes, number: number) }
        return try PayloadDictionaries(byNumber: byNumber, current: current, compresses: current != 0)
    }

    /// The level new payloads are compressed at. Level 1 rather than zstd's default 3: about 0.5 % larger frames
    /// (42.5 against 41.6 bytes per demo payload) for about 5 % less of the ingest writer thread's time — on the
    /// writer, between LMDB's page work, level 3's larger match tables are mostly out of the cache
    /// (Docs/performance.md). Frames do not record the level; any level decompresses alike.
    static let compressionLevel: Int32 = 1

    private static func dictionary(bytes: [UInt8], number: UInt32) throws(EventStoreError) -> ZstdDictionary {
        do {
            return try ZstdDictionary(bytes: bytes, level: compressionLevel)
        } catch {
            throw .badPayloadDictionary(number: number, reason: error.description)
        }
    }

    private init(byNumber: [UInt32: ZstdDictionary], current: UInt32, compresses: Bool) throws(EventStoreError) {
        self.byNumber = byNumber
        self.current = current
        self.compresses = compresses
        currentDictionary = byNumber[current]!
        do {
            compressor = try ZstdCompressor(dictionary: currentDictionary)
        } catch {
            throw .badPayloadDictionary(number: current, reason: error.description)
        }
    }

    /// Loads the dictionaries stored in `meta` and, when `given` is a dictionary the store does not hold yet,
    /// stores it under the next number; new payloads then use `given` (or, with none given, the newest stored).
    static func open(given: [UInt8]?, in txn: borrowing Transaction, meta: Database) throws -> PayloadDictionaries {
        var byNumber = [UInt32(0): try dictionary(bytes: [], number: 0)]
        var stored: [(number: UInt32, bytes: [UInt8])] = []
        try txn.withCursor(meta) { cursor in
            var found = try cursor.move(.atOrAfter, key: StoreKeys.payloadDictionaryPrefix)
            // Keys sort by number (big-endian); stop at the first key past the prefix. A key of another length
            // was not written by paylog and names no dictionary a record could refer to: it is passed over.
            while found {
                let prefixed = cursor.withCurrent { key, value -> Bool in
                    let prefix = StoreKeys.payloadDictionaryPrefix
                    guard key.starts(with: prefix) else { return false }
                    if key.count == prefix.count + 4 {
                        stored.append((key[prefix.count...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }, Array(value)))
                    }
                    return true
                }
                guard prefixed else { break }
                found = try cursor.move(.next)
            }
        }
        for (number, bytes) in stored { byNumber[number] = try dictionary(bytes: bytes, number: number) }
        let newest = stored.last?.number ?? 0
        guard let given, !given.isEmpty else { return try PayloadDictionaries(byNumber: byNumber, current: newest, compresses: newest != 0) }
        if let same = stored.last(where: { $0.bytes == given }) {
            return try PayloadDictionaries(byNumber: byNumber, current: same.number, compresses: true)
        }
        let number = newest + 1
        byNumber[number] = try dictionary(bytes: given, number: 0)
        try txn.put(given, for: StoreKeys.payloadDictionary(number), in: meta)
        return try PayloadDictionaries(byNumber: byNumber, current: number, compresses: true)
    }

    /// The dictionary numbered `number`, or `nil` when the store holds none by that number.
    @inline(__always)
    func dictionary(_ number: UInt32) -> ZstdDictionary? { number == current ? currentDictionary : byNumber[number] }

    /// Compresses `payload` with the current dictionary and calls `body` with the frame and the dictionary's
    /// number; calls `body` with `nil` when the payload is short or does not compress enough to be worth a frame.
    func withCompressed<R>(
        _ payload: UnsafeRawBufferPointer, _ body: ((frame: UnsafeRawBufferPointer, dictionary: UInt32)?) throws -> R
    ) rethrows -> R {
        guard compresses, payload.count >= PayloadDictionaries.minimumCompressedSize else { return try body(nil) }
        compressorLock.lock()
        defer { compressorLock.unlock() }
        let result = try compressor.compress(payload, minimumSaving: PayloadDictionaries.minimumSaving) { frame in
            try body((frame, current))
        }
        if let result { return result }
        return try body(nil)
    }
}
