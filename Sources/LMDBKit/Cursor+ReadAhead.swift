import CLMDB

extension Cursor {
    /// Calls `body` with each entry from the current one on, in key order, until `body` returns false, `limit`
    /// entries were visited or the database ends; returns how many entries `body` was called with.
    ///
    /// Before each call the cursor has already moved to the next entry and asked the CPU to start loading that
    /// entry's value, so that a loop which decodes every value overlaps the next value's trip from memory with its
    /// work on this one. A scan of a log larger than the CPU's caches otherwise waits for memory at the first bytes
    /// of each value: reading ahead made `EventStore.forEach` 12–17 % faster (paired scans of the benchmark's
    /// 1 M-event log; Docs/performance-history.md, twenty-fourth round).
    ///
    /// The views lent to `body` are valid only inside that call, as with ``withCurrent(_:)``. They stay valid
    /// while the cursor moves on because LMDB keeps a value's bytes in place until the transaction writes or ends;
    /// so `body` must not write in the cursor's transaction. The cursor must be on an entry when this is called
    /// (its last ``move(_:key:)`` returned true). Afterwards it is on the entry after the last one visited, where
    /// a next walk can go on (after a `limit` of 0, where it was); when the database has no such entry, it is on
    /// none, as after a ``move(_:key:)`` that returned false.
    public func forEachReadingAhead(
        limit: Int = .max,
        _ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Bool
    ) throws -> Int {
        guard limit > 0 else { return 0 }
        var current = currentViews()
        var visited = 0
        while true {
            visited += 1
            var next: (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)?
            if try move(.next) {
                let views = currentViews()
                paylog_prefetch(views.value.baseAddress, min(views.value.count, Self.readAheadBytes))
                next = views
            }
            guard try body(current.key, current.value), visited < limit, let next else { return visited }
            current = next
        }
    }

    /// The most bytes of a value read ahead: a page (a value on overflow pages of its own is read on in order, which
    /// the CPU's own prefetcher follows).
    static var readAheadBytes: Int { 4096 }
}
