/// The buffer one fold thread decompresses payloads into (``FoldEvent/payload()``): allocated once and grown when
/// a payload is larger, so a rebuild does not allocate per event.
///
/// Used by one thread at a time (its ``FoldPartition``), hence `@unchecked Sendable`.
final class FoldScratch: @unchecked Sendable {
    /// The bytes; replaced by a larger allocation when a payload needs it.
    var buffer: UnsafeMutableRawBufferPointer

    /// A scratch buffer of `capacity` bytes to start with.
    init(capacity: Int = 4_096) {
        buffer = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { buffer.deallocate() }
}
