#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a sorter's in-memory rows: filled by the sorter as rows come, then handed to the sources merging
/// them as it is, which hold plain pointers into it (no array retained and released per row compared).
///
/// Grown with `realloc`, which moves a large block by remapping its pages instead of copying them: as a Swift
/// array, the arena doubled by copying into fresh memory (each new page faulted in and zeroed by the kernel, half
/// of the sorter's time on a slow spell, `perf`), and was copied once more into memory of its own for the merge.
final class RowArena: @unchecked Sendable {
    private var base: UnsafeMutableRawPointer?
    private var capacity = 0
    /// The bytes held.
    private(set) var count = 0

    /// An empty arena.
    init() {}

    deinit { free(base) }

    /// The bytes; valid until the next ``append(_:)`` or ``removeAll()``, and while the arena lives.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Adds `source` at the end.
    func append(_ source: UnsafeRawBufferPointer) {
        guard let start = source.baseAddress, !source.isEmpty else { return }
        if count + source.count > capacity {
            let grown = max(count + source.count, 2 * capacity, 4_096)
            guard let moved = realloc(base, grown) else {
                fatalError("out of memory growing a rebuild's row arena to \(grown) bytes")
            }
            base = moved
            capacity = grown
        }
        (base! + count).copyMemory(from: start, byteCount: source.count)
        count += source.count
    }

    /// Forgets every byte, keeping the memory for the next rows.
    func removeAll() {
        count = 0
    }
}
