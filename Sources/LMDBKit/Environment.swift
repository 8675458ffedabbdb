import CLMDB
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open LMDB environment: one directory holding `data.mdb` and `lock.mdb`.
///
/// Opened with `MDB_NOTLS`, so read transactions may run on any thread and any task. Transactions are only
/// lent to synchronous closures (``read(_:)``, ``write(_:)``), so none outlives its closure or crosses an
/// `await`. When a write hits `MDB_MAP_FULL` the environment aborts it, doubles the map while no transaction
/// of this process is live, and runs the closure again — write closures must therefore derive everything
/// they do from the transaction they are given.
///
/// Open each path once per process (LMDB's rule); a second open of the same path fails with
/// ``LMDBError/alreadyOpen(path:)``.
public final class Environment: @unchecked Sendable {
    /// Canonical paths of the environments open in this process.
    private static let openPaths = Mutex<Set<String>>([])

    private let env: OpaquePointer
    private let lock = ResizeLock()
    private let canonicalPath: String
    private let maximumMapSize: Int
    /// Guarded by `lock`: written only under the exclusive side.
    private nonisolated(unsafe) var isClosed = false
    private let mapSizeValue: Atomic<Int>
    private let growthCount = Atomic<Int>(0)

    /// The directory the environment lives in.
    public let path: String
    /// The number of reader slots that held dead processes' transactions and were cleared at open.
    public let staleReadersCleared: Int

    /// Opens (creating when needed) the environment in directory `path`.
    public init(path: String, options: EnvironmentOptions = EnvironmentOptions()) throws(LMDBError) {
        try Environment.makeDirectory(path)
        let canonical = Environment.canonicalize(path)
        let inserted = Environment.openPaths.withLock { $0.insert(canonical).inserted }
        guard inserted else { throw LMDBError.alreadyOpen(path: path) }

        var handle: OpaquePointer?
        var code = mdb_env_create(&handle)
        guard code == 0, let handle else {
            Environment.openPaths.withLock { _ = $0.remove(canonical) }
            throw LMDBError.lmdb(code: code, operation: "environment create")
        }
        func fail(_ code: Int32, _ operation: String) -> LMDBError {
            mdb_env_close(handle)
            Environment.openPaths.withLock { _ = $0.remove(canonical) }
            return LMDBError.lmdb(code: code, operation: operation)
        }
        code = mdb_env_set_mapsize(handle, options.initialMapSize)
        if code != 0 { throw fail(code, "set map size") }
        code = mdb_env_set_maxreaders(handle, options.maxReaders)
        if code != 0 { throw fail(code, "set max readers") }
        code = mdb_env_set_maxdbs(handle, MDB_dbi(options.maxDatabases))
        if code != 0 { throw fail(code, "set max databases") }
        var flags = UInt32(MDB_NOTLS)
        if options.noSync { flags |= UInt32(MDB_NOSYNC) }
        code = mdb_env_open(handle, path, flags, mdb_mode_t(options.fileMode))
        if code != 0 { throw fail(code, "open of \(path)") }
        var dead: Int32 = 0
        code = mdb_reader_check(handle, &dead)
        if code != 0 { throw fail(code, "reader check") }

        var info = MDB_envinfo()
        mdb_env_info(handle, &info)
        self.env = handle
        self.path = path
        self.canonicalPath = canonical
        self.maximumMapSize = max(options.maximumMapSize, info.me_mapsize)
        self.mapSizeValue = Atomic(info.me_mapsize)
        self.staleReadersCleared = Int(dead)
    }

    deinit {
        if !isClosed {
            mdb_env_close(env)
            Environment.openPaths.withLock { _ = $0.remove(canonicalPath) }
        }
    }

    /// Closes the environment after every live transaction has ended. Later transactions fail with
    /// ``LMDBError/closed``. Closing twice is harmless.
    public func close() {
        lock.withExclusive {
            guard !isClosed else { return }
            isClosed = true
            mdb_env_close(env)
            Environment.openPaths.withLock { _ = $0.remove(canonicalPath) }
        }
    }

    /// The current size of the memory map in bytes.
    public var mapSize: Int { mapSizeValue.load(ordering: .relaxed) }

    /// How many times this handle has grown the map.
    public var mapGrowths: Int { growthCount.load(ordering: .relaxed) }

    /// Opens (creating when missing) the named database.
    public func openDatabase(_ name: String, create: Bool = true) throws -> Database {
        try write { txn in
            var dbi: MDB_dbi = 0
            try txn.check(
                mdb_dbi_open(txn.txn, name, create ? UInt32(MDB_CREATE) : 0, &dbi), "open of database \(name)")
            return Database(dbi: dbi, name: name)
        }
    }

    /// Runs `body` in a read-only transaction. Many may run at once from any thread or task.
    public func read<R>(_ body: (borrowing Transaction) throws -> R) throws -> R {
        while true {
            let outcome: Result<R, any Error>? = lock.withShared {
                guard !isClosed else { return .failure(LMDBError.closed) }
                let txn: OpaquePointer
                do {
                    guard let began = try begin(readOnly: true) else { return nil }
                    txn = began
                } catch { return .failure(error) }
                defer { mdb_txn_abort(txn) }
                return Result { try body(Transaction(txn: txn, isReadOnly: true, state: TransactionState())) }
            }
            guard let outcome else {
                try adoptResizedMap()
                continue
            }
            return try outcome.get()
        }
    }

    /// Runs `body` in a write transaction and commits it when `body` returns; aborts it when `body` throws.
    ///
    /// Write transactions are serialized by LMDB; callers should keep them on one thread (the event store's
    /// writer thread). On `MDB_MAP_FULL` — even when `body` caught it — the transaction is aborted, the map
    /// doubled and `body` run again from scratch.
    public func write<R>(_ body: (borrowing Transaction) throws -> R) throws -> R {
        while true {
            let state = TransactionState()
            let outcome: Result<R, any Error>? = lock.withShared {
                guard !isClosed else { return .failure(LMDBError.closed) }
                let txn: OpaquePointer
                do {
                    guard let began = try begin(readOnly: false) else { return nil }
                    txn = began
                } catch { return .failure(error) }
                let result: R
                do {
                    result = try body(Transaction(txn: txn, isReadOnly: false, state: state))
                } catch {
                    mdb_txn_abort(txn)
                    return .failure(error)
                }
                if state.sawMapFull {
                    mdb_txn_abort(txn)
                    return .failure(LMDBError.lmdb(code: MDB_MAP_FULL, operation: "write"))
                }
                // mdb_txn_commit frees the transaction whether or not it succeeds: never abort it afterwards.
                let code = mdb_txn_commit(txn)
                if code != 0 {
                    if code == MDB_MAP_FULL { state.sawMapFull = true }
                    return .failure(LMDBError.lmdb(code: code, operation: "commit"))
                }
                return .success(result)
            }
            guard let outcome else {
                try adoptResizedMap()
                continue
            }
            if case .failure = outcome, state.sawMapFull {
                try grow()
                continue
            }
            return try outcome.get()
        }
    }

    /// Flushes buffers to disk. Needed only for environments opened with ``EnvironmentOptions/noSync``.
    public func sync() throws(LMDBError) {
        let code = lock.withShared { isClosed ? -1 : mdb_env_sync(env, 1) }
        if code == -1 { throw LMDBError.closed }
        try LMDBError.check(code, "sync")
    }

    /// Doubles the map (up to the configured maximum) while no transaction of this process is live.
    private func grow() throws(LMDBError) {
        let code: Int32 = lock.withExclusive {
            if isClosed { return -1 }
            let current = mapSizeValue.load(ordering: .relaxed)
            guard current < maximumMapSize else { return MDB_MAP_FULL }
            let next = min(current * 2, maximumMapSize)
            let code = mdb_env_set_mapsize(env, next)
            if code == 0 {
                var info = MDB_envinfo()
                mdb_env_info(env, &info)
                mapSizeValue.store(info.me_mapsize, ordering: .relaxed)
                growthCount.add(1, ordering: .relaxed)
            }
            return code
        }
        if code == -1 { throw LMDBError.closed }
        try LMDBError.check(code, "map growth")
    }

    /// Begins a transaction; `nil` when another process grew the map (`MDB_MAP_RESIZED`) and this handle must
    /// adopt the new size first. Called with the shared lock held.
    private func begin(readOnly: Bool) throws(LMDBError) -> OpaquePointer? {
        var txn: OpaquePointer?
        let code = mdb_txn_begin(env, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &txn)
        if code == MDB_MAP_RESIZED { return nil }
        try LMDBError.check(code, readOnly ? "read transaction begin" : "write transaction begin")
        return txn!
    }

    /// Adopts the map size another process set, while no transaction of this process is live.
    private func adoptResizedMap() throws(LMDBError) {
        let code: Int32 = lock.withExclusive {
            if isClosed { return -1 }
            let code = mdb_env_set_mapsize(env, 0)
            if code == 0 {
                var info = MDB_envinfo()
                mdb_env_info(env, &info)
                mapSizeValue.store(info.me_mapsize, ordering: .relaxed)
            }
            return code
        }
        if code == -1 { throw LMDBError.closed }
        try LMDBError.check(code, "adopting a map grown by another process")
    }

    private static func makeDirectory(_ path: String) throws(LMDBError) {
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw LMDBError.lmdb(code: errno, operation: "create directory \(path)")
        }
    }

    private static func canonicalize(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
