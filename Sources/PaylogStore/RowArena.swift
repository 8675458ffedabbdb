/// The bytes of a sorter's in-memory rows, copied once into memory of their own so that the sources merging them
/// can hold plain pointers into it (no array retained and released per row compared).
final class RowArena: @unchecked Sendable {
    private let allocation: UnsafeMutableRawBufferPointer
    /// The bytes; immutable, valid while the arena lives.
    let bytes: UnsafeRawBufferPointer

    /// A copy of `source`.
    init(_ source: [UInt8]) {
        let allocation = UnsafeMutableRawBufferPointer.allocate(byteCount: max(source.count, 1), alignment: 8)
        source.withUnsafeBytes { allocation.copyMemory(from: $0) }
        self.allocation = allocation
        bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(allocation)[0..<source.count])
    }

    deinit { allocation.deallocate() }
}
