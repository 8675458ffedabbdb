import CLMDB
import Foundation

/// Each thread's zstd decompression context (zstd's ~100 KiB of tables), made on the thread's first
/// decompression and freed when the thread ends. Any dictionary uses it: the dictionary is given per call.
private let decompressionContextKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { context in
        if let context { ZSTD_freeDCtx(OpaquePointer(context)) }
    }
    precondition(status == 0, "pthread_key_create failed (\(status)): the process is out of thread-specific keys")
    return key
}()

/// A zstd dictionary, prepared once for decompressing (and for compressing at one level), shared by every thread.
///
/// Any number of threads may call ``decompress(_:)`` at once: each uses a decompression context of its own,
/// made once per thread (not per call, and without a lock: a shared pool's lock cost a two-thread replay 4 % of
/// its time). Compression is ``ZstdCompressor``'s job (one context per writer).
public final class ZstdDictionary: Sendable {
    /// The dictionary's bytes, exactly as given (what a store keeps to decode its frames forever).
    public let bytes: [UInt8]
    /// The compression level ``ZstdCompressor`` uses with this dictionary.
    public let level: Int32
    /// zstd's prepared dictionaries; `nil` for the empty dictionary (frames compressed without one).
    private let compressionDictionary: Pointer?
    private let decompressionDictionary: Pointer?

    /// A prepared zstd dictionary: read-only once made, so zstd lets every thread use it at once.
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
        if let compressionDictionary { ZSTD_freeCDict(compressionDictionary.raw) }
        if let decompressionDictionary { ZSTD_freeDDict(decompressionDictionary.raw) }
    }

    /// Attaches this dictionary to a compression context (``ZstdCompressor``).
    func attach(compression context: OpaquePointer) -> Int {
        ZSTD_CCtx_refCDict(context, compressionDictionary?.raw)
    }

    /// The most bytes one byte of a zstd frame can decompress to.
    static let maximumExpansion = 32_768

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
        let size = try ZstdDictionary.declaredSize(of: frame)
        let context = try ZstdDictionary.threadContext()
        var result = Data(count: size)
        let written = result.withUnsafeMutableBytes { output in decompress(frame, into: output, context: context) }
        try ZstdDictionary.check(written, declared: size)
        return result
    }

    /// Decompresses one frame ``ZstdCompressor`` wrote with this dictionary into `buffer`, which the caller keeps
    /// and reuses (a fold decompresses every payload of the log, each read once: no allocation per frame).
    /// `buffer` is replaced by a larger one when the frame declares more bytes than it holds.
    /// - Returns: the payload: the first bytes of `buffer`, valid until the next call with the same buffer.
    /// - Throws: ``ZstdError/damagedFrame(reason:)`` as ``decompress(_:)``.
    public func decompress(
        _ frame: UnsafeRawBufferPointer, reusing buffer: inout UnsafeMutableRawBufferPointer
    ) throws(ZstdError) -> UnsafeRawBufferPointer {
        let size = try ZstdDictionary.declaredSize(of: frame)
        if size > buffer.count {
            buffer.deallocate()
            buffer = .allocate(byteCount: max(size, 2 * buffer.count), alignment: 16)
        }
        let output = UnsafeMutableRawBufferPointer(rebasing: buffer[..<size])
        try ZstdDictionary.check(decompress(frame, into: output, context: ZstdDictionary.threadContext()), declared: size)
        return UnsafeRawBufferPointer(output)
    }

    /// zstd's result of decompressing `frame` into `output` (exactly the size its header declares) with
    /// `context`: the size written, or one of zstd's error codes.
    private func decompress(
        _ frame: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, context: OpaquePointer
    ) -> Int {
        ZSTD_decompress_usingDDict(
            context, output.baseAddress, output.count, frame.baseAddress, frame.count, decompressionDictionary?.raw)
    }

    /// The content size `frame`'s header declares, checked against what a frame of its size can hold: a damaged
    /// header must not make us allocate what it claims.
    private static func declaredSize(of frame: UnsafeRawBufferPointer) throws(ZstdError) -> Int {
        guard let size = contentSize(of: frame) else { throw .damagedFrame(reason: "its header declares no content size") }
        // zstd cannot expand more than this: an RLE block of 4 bytes holds at most 128 KiB.
        guard size <= frame.count * maximumExpansion else {
            throw .damagedFrame(reason: "its header declares \(size) bytes, more than \(frame.count) bytes of zstd can hold")
        }
        return size
    }

    /// Throws unless zstd's result `written` is exactly the `declared` size.
    private static func check(_ written: Int, declared size: Int) throws(ZstdError) {
        if ZSTD_isError(written) != 0 { throw .damagedFrame(reason: ZstdError.message(written)) }
        guard written == size else { throw .damagedFrame(reason: "it holds \(written) bytes, its header declares \(size)") }
    }

    /// The calling thread's decompression context.
    private static func threadContext() throws(ZstdError) -> OpaquePointer {
        if let existing = pthread_getspecific(decompressionContextKey) { return OpaquePointer(existing) }
        guard let context = ZSTD_createDCtx() else { throw .outOfMemory }
        pthread_setspecific(decompressionContextKey, UnsafeRawPointer(context))
        return context
    }
}
