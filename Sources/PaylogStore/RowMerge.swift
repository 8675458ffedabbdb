#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Merges sorted sources of rows (``SortedRowSource``) into (database, key) order through a binary heap, keeping
/// per (database, key) only the row with the highest position, and refusing a key that a stream owns (position
/// 0) written twice. Used by one thread at a time, hence `@unchecked Sendable`, and its mutable properties are
/// `@exclusivity(unchecked)` (see ``FoldScratch``).
///
/// The heap holds source numbers, and each source's current row is read through plain pointers, so ordering the
/// heap retains nothing. The row waiting to be emitted is kept as pointers into its source when the source's rows
/// outlive its advance (rows in memory, the usual case), and copied into one reused buffer otherwise (a run file);
/// rows are emitted packed (``MergedRows``). Copying every row twice, into that buffer and then into the batch,
/// was half of the merge's `memmove` (`perf`, Docs/performance-history.md, forty-eighth round).
final class RowMerge: @unchecked Sendable {
    private let projection: String
    private let names: [String]
    private let sources: [SortedRowSource]
    /// A binary min-heap of source numbers by current row; every source in it has a current row.
    @exclusivity(unchecked) private var heap: [Int]
    /// The row read last, emitted once a row with another key shows it was its key's last: its database, key
    /// prefix, position, and key and value bytes (in its source, or in ``pendingCopy``).
    @exclusivity(unchecked) private var hasPending = false
    @exclusivity(unchecked) private var pendingDatabase: UInt16 = 0
    @exclusivity(unchecked) private var pendingPrefix: (UInt64, UInt64) = (0, 0)
    @exclusivity(unchecked) private var pendingPosition: UInt64 = 0
    @exclusivity(unchecked) private var pendingKey = UnsafeRawBufferPointer(start: nil, count: 0)
    @exclusivity(unchecked) private var pendingValue = UnsafeRawBufferPointer(start: nil, count: 0)
    /// Holds the pending row's key and value when its source reuses its row's bytes; grown when a row needs more.
    @exclusivity(unchecked) private var pendingCopy = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    /// A merge of `sources` of `projection`'s rows, whose database numbers index `names`.
    init(projection: String, names: [String], sources: [SortedRowSource]) {
        self.projection = projection
        self.names = names
        self.sources = sources
        heap = sources.indices.filter { sources[$0].hasRow }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
    }

    deinit { pendingCopy.deallocate() }

    /// Up to `limit` rows in (database, key) order, one per key (the highest position), packed; empty when all
    /// were returned.
    ///
    /// `spare`, a batch the caller is done with, is emptied and refilled instead of allocating a new one: a batch
    /// holds megabytes, and fresh memory costs a page fault and the kernel's zeroing per page (a third of the
    /// merge's time, `perf`, Docs/performance.md). Pass it moved (its buffers shared with nothing), or they are
    /// copied before they are refilled.
    func nextBatch(_ limit: Int, reusing spare: consuming MergedRows? = nil) throws -> MergedRows {
        var batch = (consume spare) ?? MergedRows(names: names, capacity: min(limit, 1 << 16))
        batch.removeAll()
        while batch.count < limit {
            guard let top = heap.first else {
                if hasPending { emitPending(into: &batch); hasPending = false }
                break
            }
            let source = sources[top]
            if hasPending {
                let sameKey = pendingDatabase == source.database && pendingPrefix == source.prefix
                    && RowMerge.compare(pendingKey, source.key) == 0
                if !sameKey {
                    emitPending(into: &batch)
                } else if pendingPosition == 0 || source.position == 0 {
                    throw EventStoreError.rebuildFailed(
                        projection: projection,
                        reason: "two streams wrote key \(String(decoding: source.key, as: UTF8.self)) of \(names[Int(source.database)]) as their own row; "
                            + "a stream's own rows (ViewRows.append) must be keyed by that stream alone")
                }
            }
            pendingDatabase = source.database
            pendingPrefix = source.prefix
            pendingPosition = source.position
            if source.rowsOutliveAdvance {
                (pendingKey, pendingValue) = (source.key, source.value)
            } else {
                keepCopy(key: source.key, value: source.value)
            }
            hasPending = true
            try source.advance()
            if !source.hasRow {
                let last = heap.removeLast()
                if !heap.isEmpty { heap[0] = last }
            }
            if !heap.isEmpty { siftDown(from: 0) }
        }
        return batch
    }

    private func emitPending(into batch: inout MergedRows) {
        batch.append(database: pendingDatabase, position: pendingPosition, key: pendingKey, value: pendingValue)
    }

    /// Copies `key` and `value` into ``pendingCopy`` and points the pending row at the copy.
    private func keepCopy(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        let count = key.count + value.count
        if count > pendingCopy.count {
            pendingCopy.deallocate()
            pendingCopy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 2 * pendingCopy.count, 4_096), alignment: 8)
        }
        if !key.isEmpty { pendingCopy.baseAddress!.copyMemory(from: key.baseAddress!, byteCount: key.count) }
        if !value.isEmpty { (pendingCopy.baseAddress! + key.count).copyMemory(from: value.baseAddress!, byteCount: value.count) }
        let copy = UnsafeRawBufferPointer(pendingCopy)
        pendingKey = UnsafeRawBufferPointer(rebasing: copy[0..<key.count])
        pendingValue = UnsafeRawBufferPointer(rebasing: copy[key.count..<count])
    }

    /// Restores the heap order below `index`.
    private func siftDown(from index: Int) {
        var parent = index
        let count = heap.count
        while true {
            var smallest = parent
            let left = 2 * parent + 1
            if left < count && precedes(heap[left], heap[smallest]) { smallest = left }
            if left + 1 < count && precedes(heap[left + 1], heap[smallest]) { smallest = left + 1 }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }

    private func precedes(_ a: Int, _ b: Int) -> Bool {
        let x = sources[a]
        let y = sources[b]
        if x.database != y.database { return x.database < y.database }
        // Keys whose first sixteen bytes differ are in those bytes' order: `memcmp` only on equal prefixes (it
        // was 1.3 % of a replay's samples, under this heap's sifts).
        if x.prefix != y.prefix { return SortedRowEntry.precedes(x.prefix, y.prefix) }
        let order = RowMerge.compare(x.key, y.key)
        if order != 0 { return order < 0 }
        return x.position < y.position
    }

    /// memcmp order, shorter first on a common prefix (LMDB's default key order).
    static func compare(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Int32 {
        let common = min(x.count, y.count)
        if common > 0 {
            let order = memcmp(x.baseAddress!, y.baseAddress!, common)
            if order != 0 { return order }
        }
        return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
    }
}
