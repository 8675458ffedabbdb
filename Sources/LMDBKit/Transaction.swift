import CLMDB

/// A live LMDB transaction, lent to a closure by ``Environment/read(_:)``, ``Environment/write(_:)``
/// or ``Transaction/nested(_:)``.
///
/// It is non-copyable and only ever borrowed, so it cannot outlive the closure that received it; the
/// closures are synchronous, so it cannot cross an `await`. The environment commits or aborts it — never
/// the caller — so a failed commit can never be followed by a second free. Every accessor that returns
/// data copies it out; raw views of LMDB's memory are only handed to closures.
public struct Transaction: ~Copyable {
    let txn: OpaquePointer
    /// True for read-only transactions. Writes in them fail with `EACCES`.
    public let isReadOnly: Bool
    let state: TransactionState

    init(txn: OpaquePointer, isReadOnly: Bool, state: TransactionState) {
        self.txn = txn
        self.isReadOnly = isReadOnly
        self.state = state
    }

    @inline(__always)
    func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(LMDBError) {
        if code == 0 { return }
        if code == MDB_MAP_FULL { state.sawMapFull = true }
        throw LMDBError.lmdb(code: code, operation: operation())
    }

    // MARK: Reading

    /// Calls `body` with a view of the value stored under `key`, or `nil` when there is none.
    /// The view is valid only inside `body`.
    public func withValue<R>(
        for key: [UInt8], in db: Database,
        _ body: (UnsafeRawBufferPointer?) throws -> R
    ) throws -> R {
        try key.withUnsafeBytes { try withValue(forKeyBytes: $0, in: db, body) }
    }

    /// Calls `body` with a view of the value stored under the key in `key`'s bytes, or `nil` when there is none.
    /// For hot paths that build keys on the stack; the view is valid only inside `body`.
    public func withValue<R>(
        forKeyBytes key: UnsafeRawBufferPointer, in db: Database,
        _ body: (UnsafeRawBufferPointer?) throws -> R
    ) throws -> R {
        var value = MDB_val()
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        let code = mdb_get(txn, db.dbi, &k, &value)
        if code == MDB_NOTFOUND { return try body(nil) }
        try check(code, "get in \(db.name)")
        return try body(UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size))
    }

    /// A copy of the value stored under `key`, or `nil` when there is none.
    public func value(for key: [UInt8], in db: Database) throws -> [UInt8]? {
        try withValue(for: key, in: db) { $0.map { Array($0) } }
    }

    /// Opens a cursor on `db` for the duration of `body`.
    public func withCursor<R>(_ db: Database, _ body: (borrowing Cursor) throws -> R) throws -> R {
        var cursor: OpaquePointer?
        try check(mdb_cursor_open(txn, db.dbi, &cursor), "cursor open in \(db.name)")
        let slots = UnsafeMutablePointer<MDB_val>.allocate(capacity: 2)
        slots.initialize(repeating: MDB_val(), count: 2)
        defer {
            mdb_cursor_close(cursor)
            slots.deallocate()
        }
        return try body(Cursor(cursor: cursor!, key: slots, value: slots + 1, database: db, state: state))
    }

    /// The number of entries in `db`.
    public func count(_ db: Database) throws(LMDBError) -> Int {
        var stat = MDB_stat()
        try check(mdb_stat(txn, db.dbi, &stat), "stat of \(db.name)")
        return stat.ms_entries
    }

    // MARK: Writing

    /// Stores `value` under `key`, replacing any existing value.
    ///
    /// - Parameter append: the key is known to sort after every key in `db` (`MDB_APPEND`), which makes
    ///   sequential inserts cheaper; LMDB fails with `MDB_KEYEXIST` when it does not.
    public func put(
        _ value: [UInt8], for key: [UInt8], in db: Database, append: Bool = false
    ) throws(LMDBError) {
        let code: Int32 = key.withUnsafeBytes { keyBytes in
            value.withUnsafeBytes { valueBytes in
                var k = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
                var v = MDB_val(mv_size: valueBytes.count, mv_data: UnsafeMutableRawPointer(mutating: valueBytes.baseAddress))
                return mdb_put(txn, db.dbi, &k, &v, append ? UInt32(MDB_APPEND) : 0)
            }
        }
        try check(code, "put in \(db.name)")
    }

    /// Stores the bytes of `value` under the bytes of `key`, replacing any existing value: ``put(_:for:in:append:)``
    /// for hot paths that build keys and values on the stack.
    public func put(
        bytes value: UnsafeRawBufferPointer, forKeyBytes key: UnsafeRawBufferPointer, in db: Database,
        append: Bool = false
    ) throws(LMDBError) {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        try check(mdb_put(txn, db.dbi, &k, &v, append ? UInt32(MDB_APPEND) : 0), "put in \(db.name)")
    }

    /// Reserves `count` bytes for the value under the bytes of `key` (`MDB_RESERVE`) and lets `fill` write them
    /// straight into LMDB's page, so a value built for storage is never built in a buffer of its own first.
    ///
    /// `fill` must write all `count` bytes. If it throws, the entry holds whatever it wrote: the caller must abort
    /// the transaction (or the nested one around the call). Not for `MDB_DUPSORT` databases.
    public func reserve<R>(
        _ count: Int, forKeyBytes key: UnsafeRawBufferPointer, in db: Database, append: Bool = false,
        _ fill: (UnsafeMutableRawBufferPointer) throws -> R
    ) throws -> R {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: count, mv_data: nil)
        let flags = UInt32(MDB_RESERVE) | (append ? UInt32(MDB_APPEND) : 0)
        try check(mdb_put(txn, db.dbi, &k, &v, flags), "put in \(db.name)")
        return try fill(UnsafeMutableRawBufferPointer(start: v.mv_data, count: count))
    }

    /// Removes the entry under `key`. Returns false when there was none.
    @discardableResult
    public func delete(_ key: [UInt8], in db: Database) throws(LMDBError) -> Bool {
        let code: Int32 = key.withUnsafeBytes { keyBytes in
            var k = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            return mdb_del(txn, db.dbi, &k, nil)
        }
        if code == MDB_NOTFOUND { return false }
        try check(code, "delete in \(db.name)")
        return true
    }

    /// Opens the named database inside this write transaction (creating it when `create`), or returns nil when it
    /// does not exist. The handle is usable by other transactions once this one commits.
    public func openDatabase(_ name: String, create: Bool) throws(LMDBError) -> Database? {
        var dbi: MDB_dbi = 0
        let code = mdb_dbi_open(txn, name, create ? UInt32(MDB_CREATE) : 0, &dbi)
        if code == MDB_NOTFOUND { return nil }
        try check(code, "open of database \(name)")
        return Database(dbi: dbi, name: name)
    }

    /// Deletes `db` and its handle from the environment. Only when no other transaction of the process can be
    /// using the handle (e.g. while the store opens).
    public func deleteDatabase(_ db: Database) throws(LMDBError) {
        try check(mdb_drop(txn, db.dbi, 1), "delete of database \(db.name)")
    }

    /// Removes every entry of `db`, keeping the database.
    public func clear(_ db: Database) throws(LMDBError) {
        try check(mdb_drop(txn, db.dbi, 0), "clear of \(db.name)")
    }

    /// Runs `body` in a nested write transaction: committed into this one when `body` returns,
    /// aborted alone when it throws, leaving this transaction as it was.
    public func nested<R>(_ body: (borrowing Transaction) throws -> R) throws -> R {
        var child: OpaquePointer?
        try check(mdb_txn_begin(mdb_txn_env(txn), txn, 0, &child), "nested transaction begin")
        let nestedTxn = Transaction(txn: child!, isReadOnly: false, state: state)
        let result: R
        do {
            result = try body(nestedTxn)
        } catch {
            mdb_txn_abort(child)
            throw error
        }
        // mdb_txn_commit frees the child whether or not it succeeds: never abort it afterwards.
        try check(mdb_txn_commit(child), "nested transaction commit")
        return result
    }
}
