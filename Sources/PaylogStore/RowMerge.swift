#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Merges sorted sources of rows (``SortedRowSource``) into (database, key) order through a binary heap, keeping
/// per (database, key) only the row with the highest position, and refusing a key that a stream owns (position
/// 0) written twice. Used by one thread at a time, hence `@unchecked Sendable`.
final class RowMerge: @unchecked Sendable {
    private let projection: String
    private let names: [String]
    /// A binary min-heap by current row; every source in it has a current row.
    private var heap: [SortedRowSource]
    private var pending: ViewRow?

    /// A merge of `sources` of `projection`'s rows, whose database numbers index `names`.
    init(projection: String, names: [String], sources: [SortedRowSource]) {
        self.projection = projection
        self.names = names
        heap = sources.filter { $0.current != nil }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { RowMerge.siftDown(&heap, from: index) }
    }

    /// Up to `limit` rows in (database, key) order, one per key (the highest position); empty when all were
    /// returned.
    func next(_ limit: Int) throws -> [ViewRow] {
        var batch: [ViewRow] = []
        while batch.count < limit {
            guard let row = try nextMerged() else {
                if let last = pending { batch.append(last); pending = nil }
                break
            }
            if let previous = pending {
                if previous.database != row.database || previous.key != row.key {
                    batch.append(previous)
                } else if previous.position == 0 || row.position == 0 {
                    throw EventStoreError.rebuildFailed(
                        projection: projection,
                        reason: "two streams wrote key \(String(decoding: row.key, as: UTF8.self)) of \(row.database) as their own row; "
                            + "a stream's own rows (ViewRows.append) must be keyed by that stream alone")
                }
            }
            pending = row
        }
        return batch
    }

    /// The smallest current row of all sources, or nil when all are drained.
    private func nextMerged() throws -> ViewRow? {
        guard let top = heap.first, let row = top.current else { return nil }
        try top.advance()
        if top.current == nil {
            let last = heap.removeLast()
            if !heap.isEmpty { heap[0] = last }
        }
        if !heap.isEmpty { RowMerge.siftDown(&heap, from: 0) }
        return ViewRow(database: names[Int(row.database)], key: row.key, value: row.value, position: row.position)
    }

    /// Restores the heap order below `index`.
    private static func siftDown(_ heap: inout [SortedRowSource], from index: Int) {
        var parent = index
        while true {
            var smallest = parent
            let left = 2 * parent + 1
            if left < heap.count && precedes(heap[left], heap[smallest]) { smallest = left }
            if left + 1 < heap.count && precedes(heap[left + 1], heap[smallest]) { smallest = left + 1 }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }

    private static func precedes(_ a: SortedRowSource, _ b: SortedRowSource) -> Bool {
        let x = a.current!
        let y = b.current!
        if x.database != y.database { return x.database < y.database }
        let order = x.key.withUnsafeBytes { p in y.key.withUnsafeBytes { q in compare(p, q) } }
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
