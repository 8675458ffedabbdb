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
    /// This environment's place in the process's budget thread (``MappedMemoryGovernor``) when it has a
    /// ``mappedMemoryBudget``. Set only in `init`.
    private(set) var budgetMembership: MappedMemoryGovernor.Membership?
    /// The budget the environment keeps its mapped pages under (``EnvironmentOptions/mappedMemoryBudget``); nil: none.
    public let mappedMemoryBudget: Int?
    /// Guarded by `lock`: written only under the exclusive side.
    private nonisolated(unsafe) var isClosed = false
    private let mapSizeValue: Atomic<Int>
    private let growthCount = Atomic<Int>(0)
    /// Where the map of `data.mdb` lies, and the map size it was found for (see ``releaseMappedPages()``).
    private let mapRanges = Mutex<(size: Int, ranges: [(start: UInt, end: UInt)])>((0, []))
    /// Where the budget thread releases the map next (see ``sweepMappedPages(over:resident:)``).
    private let mapSweep: Mutex<MapSweep>
    /// The resident bytes a sweep could not get under (``MapSweep/floor``), for tests.
    var mapSweepFloor: Int? { mapSweep.withLock { $0.floor } }
    /// Keeps faults in a budgeted map to one page each (see ``mapsOnePagePerFault``). Registered in `init` and again
    /// whenever the map is replaced, under the exclusive side of `lock`.
    private let singlePageFaults = Mutex(SinglePageFaults())

    /// The directory the environment lives in.
    public let path: String
    /// Opened with ``EnvironmentOptions/readOnly``: write transactions fail with ``LMDBError/readOnly(path:)``.
    public let isReadOnly: Bool
    /// The number of reader slots that held dead processes' transactions and were cleared at open.
    public let staleReadersCleared: Int

    /// Opens (creating when needed, unless ``EnvironmentOptions/readOnly``) the environment in directory `path`.
    ///
    /// A durable environment (not ``EnvironmentOptions/noSync``) that this creates has its directory's entries
    /// flushed before this returns (``syncDirectory(_:)``), so the first commit's `fsync` leaves nothing of the new
    /// store to the file system's goodwill: the new `data.mdb` is named on disk before anything is acknowledged in it.
    public convenience init(path: String, options: EnvironmentOptions = EnvironmentOptions()) throws(LMDBError) {
        try self.init(path: path, options: options, governor: .shared)
    }

    /// Opens the environment as ``init(path:options:)`` does, its budget (if any) kept by `governor`: a test's own,
    /// which looks only when the test makes it.
    init(path: String, options: EnvironmentOptions, governor: MappedMemoryGovernor) throws(LMDBError) {
        var creatingDataFile = false
        if !options.readOnly {
            try Environment.makeDirectory(path)
            try Environment.reserveLockFile(in: path, readers: options.maxReaders, mode: options.fileMode)
            var file = Glibc.stat()
            creatingDataFile = !options.noSync && stat(path + "/data.mdb", &file) != 0 && errno == ENOENT
        }
        let canonical = Environment.canonicalize(path)
        let inserted = Environment.openPaths.withLock { $0.insert(canonical).inserted }
        guard inserted else { throw LMDBError.alreadyOpen(path: path) }

        var handle: OpaquePointer?
        var code = mdb_env_create(&handle)
        guard code == 0, let handle else {
            Environment.openPaths.withLock { _ = $0.remove(canonical) }
            throw LMDBError.lmdb(code: code, operation: "environment create")
        }
        func release() {
            mdb_env_close(handle)
            Environment.openPaths.withLock { _ = $0.remove(canonical) }
        }
        func fail(_ code: Int32, _ operation: String) -> LMDBError {
            release()
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
        if options.readOnly { flags |= UInt32(MDB_RDONLY) }
        code = mdb_env_open(handle, path, flags, mdb_mode_t(options.fileMode))
        if code == MDB_INVALID, let bytes = Environment.unfinishedDataFileSize(in: path) {
            release()
            // A first meta page that names pages beyond the two headers: a store that held data, cut short (a copy
            // that did not finish), not a creation that never did. No readable first meta page: either, or neither
            // (LMDB writes its two header pages in one call, so its own unfinished creation leaves a whole page 0).
            guard let needed = Environment.bytesRecordedByFirstMetaPage(in: path) else {
                throw LMDBError.unreadableHeader(path: path, fileBytes: bytes)
            }
            if needed > 2 * Environment.pageSize {
                throw LMDBError.truncated(path: path, fileBytes: bytes, neededBytes: needed)
            }
            throw LMDBError.unfinishedCreation(path: path, fileBytes: bytes)
        }
        if code != 0 { throw fail(code, "open of \(path)") }
        if creatingDataFile {
            do { try Environment.syncDirectory(path) } catch {
                release()
                throw error
            }
        }
        var dead: Int32 = 0
        code = mdb_reader_check(handle, &dead)
        if code != 0 { throw fail(code, "reader check") }

        var info = MDB_envinfo()
        mdb_env_info(handle, &info)
        // A file shorter than its own last page (a copy cut off) would be mapped past its end, and the first read
        // there kills the process with SIGBUS: refuse it while that is still an error.
        var stat = MDB_stat()
        var descriptor: mdb_filehandle_t = -1
        if mdb_env_stat(handle, &stat) == 0, mdb_env_get_fd(handle, &descriptor) == 0 {
            var file = Glibc.stat()
            let needed = (Int(info.me_last_pgno) + 1) * Int(stat.ms_psize)
            if fstat(descriptor, &file) == 0, Int(file.st_size) < needed {
                release()
                throw LMDBError.truncated(path: path, fileBytes: Int(file.st_size), neededBytes: needed)
            }
        }
        self.env = handle
        self.path = path
        self.isReadOnly = options.readOnly
        self.canonicalPath = canonical
        self.maximumMapSize = max(options.maximumMapSize, info.me_mapsize)
        self.mapSizeValue = Atomic(info.me_mapsize)
        self.staleReadersCleared = Int(dead)
        self.mappedMemoryBudget = options.mappedMemoryBudget
        let slice = max(1 << 20, (options.mappedMemoryBudget ?? 0) / 8)
        self.mapSweep = Mutex(MapSweep(slice: slice / Environment.pageSize * Environment.pageSize))
        if let budget = options.mappedMemoryBudget {
            budgetMembership = governor.register { [weak self] resident in
                self?.sweepMappedPages(over: budget, resident: resident) ?? false
            }
            registerSinglePageFaults()
        }
    }

    deinit {
        budgetMembership?.stop()
        if !isClosed {
            mdb_env_close(env)
            Environment.openPaths.withLock { _ = $0.remove(canonicalPath) }
        }
    }

    /// Closes the environment after every live transaction has ended. Later transactions fail with
    /// ``LMDBError/closed``. Closing twice is harmless.
    public func close() {
        budgetMembership?.stop()
        lock.withExclusive {
            guard !isClosed else { return }
            isClosed = true
            mdb_env_close(env)
            singlePageFaults.withLock { $0.close() }
            Environment.openPaths.withLock { _ = $0.remove(canonicalPath) }
        }
    }

    /// The current size of the memory map in bytes.
    public var mapSize: Int { mapSizeValue.load(ordering: .relaxed) }

    /// How many times this handle has grown the map.
    public var mapGrowths: Int { growthCount.load(ordering: .relaxed) }

    /// How many times the map's pages were released to keep them under ``EnvironmentOptions/mappedMemoryBudget``
    /// (0 without a budget).
    public var budgetReleases: Int { budgetMembership?.releaseCount ?? 0 }

    /// Whether a read fault in the map brings in only the page read. True with a
    /// ``EnvironmentOptions/mappedMemoryBudget`` where the kernel allows it (Linux 6.7 or later, userfaultfd not
    /// disabled); false without a budget, where the kernel's usual fault-around — up to 16 cached neighbours mapped
    /// on each fault — is kept, since nothing releases those pages again. Why: see `SinglePageFaults.swift`.
    public var mapsOnePagePerFault: Bool { singlePageFaults.withLock { $0.isActive } }

    /// The `errno` with which the kernel last refused one-page faults for the map (``mapsOnePagePerFault``), such
    /// as `EPERM` or `EINVAL`; nil when it never refused. For an operator asking why the map keeps fault-around.
    public var onePagePerFaultRefusal: Int32? {
        singlePageFaults.withLock { $0.lastError == 0 ? nil : $0.lastError }
    }

    /// Opens (creating when missing, unless the environment ``isReadOnly``) the named database. In a read-only
    /// environment a database that does not exist fails with `MDB_NOTFOUND`.
    public func openDatabase(_ name: String, create: Bool = true) throws -> Database {
        if isReadOnly {
            return try readOpeningDatabases { txn in
                var dbi: MDB_dbi = 0
                try txn.check(mdb_dbi_open(txn.txn, name, 0, &dbi), "open of database \(name)")
                return Database(dbi: dbi, name: name)
            }
        }
        return try write { txn in
            var dbi: MDB_dbi = 0
            try txn.check(
                mdb_dbi_open(txn.txn, name, create ? UInt32(MDB_CREATE) : 0, &dbi), "open of database \(name)")
            return Database(dbi: dbi, name: name)
        }
    }

    /// Runs `body` in a read-only transaction. Many may run at once from any thread or task.
    public func read<R>(_ body: (borrowing Transaction) throws -> R) throws -> R {
        try read(keepingOpenedDatabases: false, body)
    }

    /// Runs `body` in a read-only transaction that, when `body` returns, is committed rather than aborted, so
    /// that the database handles it opened (``Transaction/openDatabase(_:create:)``) stay valid for the
    /// environment's later transactions, as a write transaction's do once committed. How a read-only environment
    /// opens its databases.
    public func readOpeningDatabases<R>(_ body: (borrowing Transaction) throws -> R) throws -> R {
        try read(keepingOpenedDatabases: true, body)
    }

    private func read<R>(keepingOpenedDatabases: Bool, _ body: (borrowing Transaction) throws -> R) throws -> R {
        while true {
            let outcome: Result<R, any Error>? = lock.withShared {
                guard !isClosed else { return .failure(LMDBError.closed) }
                let txn: OpaquePointer
                do {
                    guard let began = try begin(readOnly: true) else { return nil }
                    txn = began
                } catch { return .failure(error) }
                let result = Result { try body(Transaction(txn: txn, isReadOnly: true, state: TransactionState())) }
                guard keepingOpenedDatabases, case .success = result else {
                    mdb_txn_abort(txn)
                    return result
                }
                // Frees the transaction whether or not it succeeds; a read-only one's commit only keeps its handles.
                let code = mdb_txn_commit(txn)
                return code == 0 ? result : .failure(LMDBError.lmdb(code: code, operation: "read transaction commit"))
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
        if isReadOnly { throw LMDBError.readOnly(path: path) }
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

    /// Writes a consistent copy of the environment's data file to `directory/data.mdb` (`mdb_env_copyfd2`): the
    /// snapshot of one read transaction, so it is safe beside writers in this and other processes, and the copy
    /// holds exactly what was committed when it began. `directory` must exist and hold no `data.mdb` (the file is
    /// created exclusively: one there is never overwritten).
    ///
    /// With `compact`, only pages in use are written, each database's in key order, renumbered: the free pages
    /// are dropped and a database's leaves lie in the order a cursor reads them. Without it, the file is copied
    /// page for page. The copy is flushed to disk (`fsync` of the file and of `directory`) before this returns.
    /// It holds the environment's shared lock throughout: a map resize in this process waits for it. The file is
    /// created with `mode` (`mdb_env_copy2` would create it 0666 less the umask: a store's evidence readable by
    /// everyone).
    public func copy(to directory: String, compact: Bool, mode: UInt32 = 0o600) throws(LMDBError) {
        let flags = compact ? UInt32(MDB_CP_COMPACT) : 0
        let file = open(directory + "/data.mdb", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode))
        guard file >= 0 else { throw LMDBError.lmdb(code: errno, operation: "create \(directory)/data.mdb for the copy") }
        let code = lock.withShared { isClosed ? -1 : mdb_env_copyfd2(env, file, flags) }
        closeDescriptor(file)
        if code == -1 { throw LMDBError.closed }
        try LMDBError.check(code, "copy to \(directory)")
        let copied = directory + "/data.mdb"
        let descriptor = open(copied, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw LMDBError.lmdb(code: errno, operation: "open of \(copied) to flush the copy") }
        defer { closeDescriptor(descriptor) }
        guard fsync(descriptor) == 0 else { throw LMDBError.lmdb(code: errno, operation: "fsync of \(copied)") }
        try Environment.syncDirectory(directory)
    }

    /// Flushes buffers to disk. Needed only for environments opened with ``EnvironmentOptions/noSync``.
    public func sync() throws(LMDBError) {
        let code = lock.withShared { isClosed ? -1 : mdb_env_sync(env, 1) }
        if code == -1 { throw LMDBError.closed }
        try LMDBError.check(code, "sync")
    }

    /// Drops this process's page-table entries for the memory map (`madvise(MADV_DONTNEED)`), so the file pages
    /// a long scan touched stop counting towards the process's resident set.
    ///
    /// Safe at any moment, also while other transactions read: LMDB maps the file shared and read-only, so
    /// nothing is lost — the next access faults the page back in from the kernel's page cache (a minor fault,
    /// no disk read while the page stays cached). Not free: the kernel flushes the TLB of every core running the
    /// process, and page-cache folios can be large (one random read may map 512 KiB), so re-faulting after a
    /// release costs far more than the first touch. Use it to bound memory, not on every read.
    ///
    /// LMDB does not expose the map's address (`me_mapaddr` is set only for fixed maps), so it is found in
    /// `/proc/self/maps` (once per map size); where that is unreadable this does nothing.
    /// Returns false when the environment is closed (nothing to release).
    @discardableResult
    public func releaseMappedPages() -> Bool {
        releaseMappedPages(from: 0, to: .max)
    }

    /// Releases the map's pages (see ``releaseMappedPages()``) between the addresses `start` and `end` — those of
    /// values read in read transactions, say — clamped to the map and widened to whole pages. Addresses outside the
    /// map are never touched, so memory that is not the map's cannot be dropped by mistake. Returns false when the
    /// environment is closed or the range is empty.
    @discardableResult
    public func releaseMappedPages(from start: UInt, to end: UInt) -> Bool {
        lock.withShared {
            guard !isClosed, start < end else { return false }
            let ranges = currentMapRanges()
            let page = UInt(Environment.pageSize)
            for range in ranges {
                let low = max(range.start, start / page * page)
                let high = min(range.end, end > UInt.max - page ? UInt.max : (end + page - 1) / page * page)
                guard low < high, let address = UnsafeMutableRawPointer(bitPattern: low) else { continue }
                _ = madvise(address, Int(high - low), MADV_DONTNEED)
            }
            return true
        }
    }

    /// The budget thread's look: when the process's resident file-backed memory, `resident` bytes, is over `budget`
    /// (or over the floor a sweep could not get under, ``MapSweep/trigger(budget:)``), releases the map one slice at
    /// a time from where the last release stopped (``MapSweep``), until it is at most three quarters of `budget` or
    /// the used part of the map was gone round once. Returns whether it released anything. The quarter of room keeps
    /// the thread from releasing on every look at the budget's edge.
    private func sweepMappedPages(over budget: Int, resident: Int) -> Bool {
        let trigger = mapSweep.withLock { $0.trigger(budget: budget) }
        guard resident > trigger else { return false }
        return lock.withShared {
            guard !isClosed else { return false }
            let ranges = currentMapRanges()
            var info = MDB_envinfo()
            mdb_env_info(env, &info)
            var stat = MDB_stat()
            mdb_env_stat(env, &stat)
            let mapped = ranges.reduce(0) { $0 + Int($1.end - $1.start) }
            let used = min(mapped, (info.me_last_pgno + 1) * Int(stat.ms_psize))
            let target = budget / 4 * 3
            let slices = mapSweep.withLock { sweep in
                sweep.sweep(usedBytes: used, target: target, resident: Environment.residentSharedBytes) {
                    Environment.release(ranges, offset: $0, length: $1)
                }
            }
            return slices > 0
        }
    }

    /// Where the map of `data.mdb` lies. Called with the shared lock held: the map moves only when it is resized,
    /// which needs the exclusive lock, so it is looked up in `/proc/self/maps` once per map size.
    private func currentMapRanges() -> [(start: UInt, end: UInt)] {
        let size = mapSizeValue.load(ordering: .relaxed)
        return mapRanges.withLock { cached in
            if cached.size != size { cached = (size, Environment.mappedRanges(of: canonicalPath + "/data.mdb")) }
            return cached.ranges
        }
    }

    /// Registers the current map for one-page faults (``mapsOnePagePerFault``) when the environment has a budget.
    /// Called in `init` and, with the exclusive lock held, after LMDB replaced the map with one of a new size.
    private func registerSinglePageFaults() {
        guard mappedMemoryBudget != nil else { return }
        let ranges = currentMapRanges()
        singlePageFaults.withLock { _ = $0.register(ranges) }
    }

    /// Releases the bytes `offset..<offset + length` of the map lying in `ranges` (taken end to end), page-aligned.
    private static func release(_ ranges: [(start: UInt, end: UInt)], offset: Int, length: Int) {
        var base = 0
        for range in ranges {
            let size = Int(range.end - range.start)
            let low = max(offset, base)
            let high = min(offset + length, base + size)
            if low < high, let address = UnsafeMutableRawPointer(bitPattern: range.start + UInt(low - base)) {
                _ = madvise(address, high - low, MADV_DONTNEED)
            }
            base += size
        }
    }

    /// True when the process's resident file-backed memory (`/proc/self/statm`'s third field: file-backed and
    /// shared pages, the map's among them) is over `budget` bytes. Cheap enough to ask every few dozen reads:
    /// one `pread`.
    public static func residentFileBytes(over budget: Int) -> Bool {
        guard let resident = residentSharedBytes() else { return false }
        return resident > budget
    }

    /// Releases the map's pages (``releaseMappedPages()``) when the process's resident file-backed memory is over
    /// `budget` bytes; returns whether it did. Cheap enough to call every few hundred reads: it reads
    /// `/proc/self/statm` (whose third field counts resident file-backed and shared pages — the map's among them).
    @discardableResult
    public func releaseMappedPages(ifResidentFileBytesAbove budget: Int) -> Bool {
        guard Environment.residentFileBytes(over: budget) else { return false }
        return releaseMappedPages()
    }

    /// Resident file-backed and shared memory of this process in bytes, from `/proc/self/statm`; nil when unreadable.
    /// The file stays open and is read with one `pread`, so that a check costs a few microseconds: rebuilds check
    /// every few dozen reads.
    static func residentSharedBytes() -> Int? {
        guard statmDescriptor >= 0 else { return nil }
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &buffer) { raw -> Int? in
            let count = pread(statmDescriptor, raw.baseAddress, raw.count, 0)
            guard count > 0 else { return nil }
            // "size resident shared text lib data dt", in pages: the third field.
            var field = 0
            var value = 0
            var inNumber = false
            for byte in raw.prefix(count) {
                if byte >= 0x30 && byte <= 0x39 {
                    if !inNumber { inNumber = true; value = 0 }
                    value = value * 10 + Int(byte - 0x30)
                } else if inNumber {
                    inNumber = false
                    field += 1
                    if field == 3 { return value * pageSize }
                }
            }
            return inNumber && field == 2 ? value * pageSize : nil
        }
    }

    /// `/proc/self/statm`, opened once for the process; -1 where it does not exist.
    private static let statmDescriptor: Int32 = open("/proc/self/statm", O_RDONLY)
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// The address ranges at which `file` is mapped into this process, from `/proc/self/maps` (empty when that
    /// is unreadable).
    private static func mappedRanges(of file: String) -> [(start: UInt, end: UInt)] {
        guard let maps = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(maps) }
        var ranges: [(start: UInt, end: UInt)] = []
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while getline(&buffer, &capacity, maps) > 0, let buffer {
            // "start-end perms offset dev inode path", addresses in hex.
            var line = String(cString: buffer)
            if line.last == "\n" { line.removeLast() }
            guard line.hasSuffix(file), let range = line.split(separator: " ").first,
                let dash = range.firstIndex(of: "-"),
                let start = UInt(range[..<dash], radix: 16),
                let end = UInt(range[range.index(after: dash)...], radix: 16), end > start
            else { continue }
            ranges.append((start, end))
        }
        return ranges
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
                registerSinglePageFaults()
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
                registerSinglePageFaults()
            }
            return code
        }
        if code == -1 { throw LMDBError.closed }
        try LMDBError.check(code, "adopting a map grown by another process")
    }

    /// Allocates `lock.mdb`'s blocks before LMDB maps it. LMDB sizes the lock file with `ftruncate` and writes its
    /// reader table through the map, so on a full disk the first write into a page with no block behind it killed
    /// the process with SIGBUS (a new store, or a `paylog backup` copy, which holds no lock file). Reserved here,
    /// a full disk is an `ENOSPC` error instead. The size is the one LMDB gives the file: its 192-byte header and
    /// `readers` - 1 more slots of 64 bytes. A lock file LMDB already sized is reserved too, but a full disk then
    /// leaves it to LMDB as before (a store that opened before must still open, for its reads above all).
    static func reserveLockFile(in path: String, readers: UInt32, mode: UInt32) throws(LMDBError) {
        let bytes = 192 + (Int(max(readers, 1)) - 1) * 64
        let descriptor = open(path + "/lock.mdb", O_RDWR | O_CREAT | O_CLOEXEC, mode_t(mode))
        // An error opening it (a directory in its place, no permission) is LMDB's to report, with its own words.
        guard descriptor >= 0 else { return }
        defer { closeDescriptor(descriptor) }
        var file = Glibc.stat()
        guard fstat(descriptor, &file) == 0 else { return }
        let existed = file.st_size > 0
        if Int(file.st_blocks) * 512 >= bytes { return }
        let code = posix_fallocate(descriptor, 0, off_t(bytes))
        // EINVAL / EOPNOTSUPP: a file system that cannot reserve blocks; LMDB then sizes the file as before.
        if code != 0 && code != EINVAL && code != EOPNOTSUPP && !existed {
            throw LMDBError.lmdb(code: code, operation: "reserve the lock file \(path)/lock.mdb")
        }
    }

    /// The size of `path`'s `data.mdb` when it is shorter than LMDB's two header (meta) pages, nil otherwise (or
    /// when there is none): what a creation cut short leaves, which LMDB refuses as "not an LMDB file".
    static func unfinishedDataFileSize(in path: String) -> Int? {
        var file = Glibc.stat()
        guard stat(path + "/data.mdb", &file) == 0, (file.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(file.st_size) < 2 * pageSize ? Int(file.st_size) : nil
    }

    /// The bytes `path`'s `data.mdb` must hold by its first meta page (LMDB's page 0: its last page number + 1, in
    /// pages), or nil when the file holds no whole page 0 or page 0 is not an LMDB meta page (magic `0xBEEFC0DE`).
    static func bytesRecordedByFirstMetaPage(in path: String) -> Int? {
        let descriptor = open(path + "/data.mdb", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { closeDescriptor(descriptor) }
        var page = [UInt8](repeating: 0, count: 152)
        guard pread(descriptor, &page, page.count, 0) == page.count else { return nil }
        func word<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            page.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        }
        // The page header (16 bytes), then MDB_meta: magic, version, address, map size, two MDB_db of 48 bytes,
        // the last page number (offset 136) and the transaction id.
        guard word(16, UInt32.self) == 0xBEEF_C0DE else { return nil }
        let lastPage = word(136, UInt64.self)
        guard lastPage < UInt64(Int.max / pageSize) else { return nil }
        return (Int(lastPage) + 1) * pageSize
    }

    private static func canonicalize(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// `close(2)`, out of the reach of ``Environment/close()``'s name.
private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
