import CLMDB

/// One zstd compression context with a ``ZstdDictionary`` attached: compresses small records one at a time.
///
/// Not thread-safe, like zstd's context: give each writing thread its own. Frames carry their content size and
/// no checksum or dictionary id (whoever stores them records which dictionary they need).
public final class ZstdCompressor {
    /// The dictionary every frame is compressed with.
    public let dictionary: ZstdDictionary
    private let context: OpaquePointer
    /// Scratch output, reused by every call.
    private var output: [UInt8] = []

    /// A context compressing with `dictionary` at the dictionary's level.
    public init(dictionary: ZstdDictionary) throws(ZstdError) {
        guard let context = ZSTD_createCCtx() else { throw .outOfMemory }
        self.context = context
        self.dictionary = dictionary
        ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, dictionary.level)
        ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 0)
        ZSTD_CCtx_setParameter(context, ZSTD_c_dictIDFlag, 0)
        ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, 1)
        let attached = dictionary.attach(compression: context)
        if ZSTD_isError(attached) != 0 {
            ZSTD_freeCCtx(context)
            throw .badDictionary(reason: ZstdError.message(attached))
        }
    }

    deinit { ZSTD_freeCCtx(context) }

    /// Compresses `input` into one frame and calls `body` with it, or returns `nil` without calling `body` when
    /// the frame would not be at least `minimumSaving` bytes smaller than `input` (store those bytes as they are).
    /// The frame's bytes are valid only inside `body`.
    public func compress<R>(
        _ input: UnsafeRawBufferPointer, minimumSaving: Int, _ body: (UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R? {
        let limit = input.count - minimumSaving
        guard limit > 0 else { return nil }
        if output.count < limit { output = [UInt8](repeating: 0, count: max(limit, 512)) }
        let written = output.withUnsafeMutableBytes { buffer in
            ZSTD_compress2(context, buffer.baseAddress, limit, input.baseAddress, input.count)
        }
        // An error here is zstd's "destination too small": the frame would not save enough.
        guard ZSTD_isError(written) == 0 else { return nil }
        return try output.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<written])) }
    }
}
