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
        // Literals stored raw, not Huffman-coded (zstd's `ZSTD_c_literalCompressionMode`, experimental parameter 5,
        // set to `ZSTD_ps_disable` = 2; both are in zstd.h's static-linking section, hence the raw values). On
        // payloads of a few hundred bytes with a dictionary, most of a frame is matches; decoding the literals'
        // Huffman table was about a quarter of each decompression (a C benchmark on the demo payloads: 0.228 →
        // 0.168 µs) for 7 bytes per frame (Docs/performance.md). Frames decode alike either way.
        ZSTD_CCtx_setParameter(context, ZSTD_c_experimentalParam5, ZstdCompressor.literalsRaw)
        let attached = dictionary.attach(compression: context)
        if ZSTD_isError(attached) != 0 {
            ZSTD_freeCCtx(context)
            throw .badDictionary(reason: ZstdError.message(attached))
        }
    }

    deinit { ZSTD_freeCCtx(context) }

    /// `ZSTD_ps_disable`: literals are not compressed.
    static let literalsRaw: Int32 = 2

    /// Compresses `input` into one frame and calls `body` with it, or returns `nil` without calling `body` when
    /// the frame would not be at least `minimumSaving` bytes smaller than `input` (store those bytes as they are).
    /// The frame's bytes are valid only inside `body`.
    public func compress<R>(
        _ input: UnsafeRawBufferPointer, minimumSaving: Int, _ body: (UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R? {
        let limit = input.count - minimumSaving
        guard limit > 0 else { return nil }
        // Room for the worst case, not just `limit`: given less than `ZSTD_compressBound`, zstd cannot compress
        // straight into the buffer and goes through its streaming buffers instead (the same frame, about 40 %
        // slower on payloads of a few hundred bytes; Docs/performance.md).
        let bound = ZSTD_compressBound(input.count)
        if output.count < bound { output = [UInt8](repeating: 0, count: max(bound, 1_024)) }
        let written = output.withUnsafeMutableBytes { buffer in
            ZSTD_compress2(context, buffer.baseAddress, buffer.count, input.baseAddress, input.count)
        }
        // A frame that saves too little is not kept; nor is one zstd failed to write (none is expected with room for
        // the worst case): either way the caller stores the bytes as they are.
        guard ZSTD_isError(written) == 0, written <= limit else { return nil }
        return try output.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<written])) }
    }
}
