import CLMDB

/// A cursor over one database, lent to a closure by ``Transaction/withCursor(_:_:)``.
///
/// ``move(_:key:)`` positions it; ``withCurrent(_:)`` lends views of the current key and value,
/// valid only inside that closure.
public struct Cursor: ~Copyable {
    let cursor: OpaquePointer
    let key: UnsafeMutablePointer<MDB_val>
    let value: UnsafeMutablePointer<MDB_val>
    let database: Database
    let state: TransactionState

    /// Moves the cursor. Returns false when there is no such entry (and the current entry is then undefined).
    ///
    /// - Parameter key: the key to look for with ``CursorOperation/exact`` and ``CursorOperation/atOrAfter``.
    public func move(_ operation: CursorOperation, key search: [UInt8]? = nil) throws(LMDBError) -> Bool {
        let code: Int32
        if let search {
            code = search.withUnsafeBytes { bytes in
                key.pointee = MDB_val(mv_size: bytes.count, mv_data: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                return mdb_cursor_get(cursor, key, value, operation.op)
            }
            // On success MDB_SET_KEY and MDB_SET_RANGE point `key` at LMDB's own copy of the found key,
            // so the current entry stays valid after `search`'s buffer is gone.
        } else {
            code = mdb_cursor_get(cursor, key, value, operation.op)
        }
        if code == MDB_NOTFOUND { return false }
        if code == MDB_MAP_FULL { state.sawMapFull = true }
        try LMDBError.check(code, "cursor move in \(database.name)")
        return true
    }

    /// Calls `body` with views of the current key and value, valid only inside `body`.
    public func withCurrent<R>(_ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let views = currentViews()
        return try body(views.key, views.value)
    }

    /// Views of the current key and value, straight into LMDB's pages (empty when the cursor is on no entry).
    func currentViews() -> (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        (UnsafeRawBufferPointer(start: key.pointee.mv_data, count: key.pointee.mv_size),
         UnsafeRawBufferPointer(start: value.pointee.mv_data, count: value.pointee.mv_size))
    }

    /// Copies of the current key and value.
    public func current() -> (key: [UInt8], value: [UInt8]) {
        withCurrent { (Array($0), Array($1)) }
    }
}
