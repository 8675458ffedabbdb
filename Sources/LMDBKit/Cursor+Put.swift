import CLMDB

extension Cursor {
    /// Stores the bytes of `value` under the bytes of `key` through this cursor (`mdb_cursor_put`), replacing any
    /// existing value. The cursor must belong to a write transaction. A put may move other entries within their
    /// page, so it forgets the current entry: ``withCurrent(_:)`` sees an empty key and value until the next
    /// ``move(_:key:)``.
    ///
    /// The way to load many keys in order: with `append`, the key must sort after every key in the database
    /// (`MDB_APPEND`; LMDB fails with `MDB_KEYEXIST` when it does not, see ``LMDBError/isKeyExists``). Unlike
    /// ``Transaction/put(bytes:forKeyBytes:in:append:)``, which starts each call from a fresh cursor and so descends
    /// from the root and looks every page of the path up in the transaction's dirty-page list, a cursor that stays
    /// on the last page finds it again at once: only its first append, and the first after a page split, descend.
    /// A rebuild's view writes spent 9 % of the writer thread in that lookup (`mdb_mid2l_search`,
    /// Docs/performance-history.md, twenty-fifth round).
    public func put(
        bytes value: UnsafeRawBufferPointer, forKeyBytes key: UnsafeRawBufferPointer, append: Bool = false
    ) throws(LMDBError) {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let code = mdb_cursor_put(cursor, &k, &v, append ? UInt32(MDB_APPEND) : 0)
        self.key.pointee = MDB_val()
        self.value.pointee = MDB_val()
        if code == MDB_MAP_FULL { state.sawMapFull = true }
        try LMDBError.check(code, "cursor put in \(database.name)")
    }
}
