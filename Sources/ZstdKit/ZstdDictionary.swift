import CLMDB
import Foundation
import Synchronization

/// A zstd dictionary, prepared once for decompressing (and for compressing at one level), shared by every thread.
///
/// Decompression borrows a context from a small pool, so any number of threads may call
/// ``decompress(_:)`` at once without allocating zstd's ~100 KiB context per call. Compression is
/// ``ZstdCompressor``'s job (one context per writer).
public final class ZstdDictionary: Sendable {
    /// The dictionary's bytes, exactly as given (what a store keeps to decode its frames forever).
    public let bytes: [UInt8]
    /// The compression level ``ZstdCompressor`` uses with this dictionary.
    public let level: Int32
    /// zstd's prepared dictionaries; `nil` for the empty dictionary (frames compressed without one).
    private let compressionDictionary: Pointer?
    private let decompressionDictionary: Pointer?
    /// Idle decompression contexts.
    private let pool = Mutex<[Pointer]>([])

    /// An opaque zstd object owned by this dictionary (never shared across threads without the pool's lock).
    struct Pointer: @unchecked Sendable {
        let raw: OpaquePointer
    }

    /// Prepares `bytes` (a dictionary `zstd --train` made, or empty for none) for compressing at `level` and
    /// for decompressing.
    public init(bytes: [UInt8], level: Int32 = 3) throws(ZstdError) {
        self.bytes = bytes
        self.level = level
        guard !bytes.isEmpty else {
            compressionDictionary = nil
            decompressionDictionary = nil
            return
        }
        let prepared = bytes.withUnsafeBytes { raw in
            (ZSTD_createCDict(raw.baseAddress, raw.count, level), ZSTD_createDDict(raw.baseAddress, raw.count))
        }
        guard let compress = prepared.0, let decompress = prepared.1 else {
            if let compress = prepared.0 { ZSTD_freeCDict(compress) }
            if let decompress = prepared.1 { ZSTD_freeDDict(decompress) }
            throw .badDictionary(reason: "zstd refused its \(bytes.count) bytes")
        }
        compressionDictionary = Pointer(raw: compress)
        decompressionDictionary = Pointer(raw: decompress)
    }

    deinit {
        for context in pool.withLock({ $0 }) { ZSTD_freeDCtx(context.raw) }
        if let compressionDictionary { ZSTD_freeCDict(compressionDictionary.raw) }
        if let decompressionDictionary { ZSTD_freeDDict(decompressionDictionary.raw) }
    }

    /// Attaches this dictionary to a compression context (``ZstdCompressor``).
    func attach(compression context: OpaquePointer) -> Int {
        ZSTD_CCtx_refCDict(context, compressionDictionary?.raw)
    }

    /// The size `frame` declares for its content, read from its header without decompressing it; `nil` when the
    /// header is damaged or declares none.
    public static func contentSize(of frame: UnsafeRawBufferPointer) -> Int? {
        let size = ZSTD_getFrameContentSize(frame.baseAddress, frame.count)
        guard size != ZSTD_CONTENTSIZE_ERROR, size != ZSTD_CONTENTSIZE_UNKNOWN, size <= UInt64(Int.max) else { return nil }
        return Int(size)
    }

    /// Decompresses one frame ``ZstdCompressor`` wrote with this dictionary.
    /// - Throws: ``ZstdError/damagedFrame(reason:)`` when the frame's bytes are damaged or belong to another
    ///   dictionary.
    public func decompress(_ frame: UnsafeRawBufferPointer) throws(ZstdError) -> Data {
        guard let size = ZstdDictionary.contentSize(of: frame) else {
            throw .damagedFrame(reason: "its header declares no content size")
        }
        let context = try borrowContext()
        defer { pool.withLock { $0.append(context) } }
        var result = Data(count: size)
        let written = result.withUnsafeMutableBytes { output in
            ZSTD_decompress_usingDDict(
                context.raw, output.baseAddress, output.count, frame.baseAddress, frame.count, decompressionDictionary?.raw)
        }
        if ZSTD_isError(written) != 0 { throw .damagedFrame(reason: ZstdError.message(written)) }
        guard written == size else {
            throw .damagedFrame(reason: "it holds \(written) bytes, its header declares \(size)")
        }
        return result
    }

    private func borrowContext() throws(ZstdError) -> Pointer {
        if let idle = pool.withLock({ $0.popLast() }) { return idle }
        guard let context = ZSTD_createDCtx() else { throw .outOfMemory }
        return Pointer(raw: context)
    }
}
