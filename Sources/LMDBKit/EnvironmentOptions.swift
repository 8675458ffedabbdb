/// How an ``Environment`` is opened.
public struct EnvironmentOptions: Sendable, Hashable {
    /// The initial size of the memory map in bytes. The map is sparse: only pages in use take disk space.
    /// The environment doubles it by itself when a write hits `MDB_MAP_FULL`.
    public var initialMapSize: Int
    /// The largest the map may grow to before writes fail with `MDB_MAP_FULL`.
    public var maximumMapSize: Int
    /// The number of reader slots. With `MDB_NOTLS` every live read transaction takes one.
    public var maxReaders: UInt32
    /// The number of named databases the environment may hold.
    public var maxDatabases: UInt32
    /// Skip `fsync` on commit. Only for rebuildable data (projection scratch space); never for the event log.
    public var noSync: Bool
    /// The file mode of created database files: 0600 by default, since the log holds personal data (SumUp receipt
    /// prefills) that only the `audit` scope may see; the directory, when created, is 0700.
    public var fileMode: UInt32
    /// When set, a thread of the environment looks every 5 ms at the process's resident file-backed memory and,
    /// when it is above this many bytes, releases the map's pages a slice at a time from where it last stopped until
    /// it is at most three quarters of it (`madvise(MADV_DONTNEED)`, as ``Environment/releaseMappedPages()``); nil:
    /// never.
    /// Every page read through the map stays in the resident set until released, so without a budget a process
    /// reading a large file grows towards the file's size — fast where the kernel maps a whole large page-cache
    /// folio, up to megabytes, on each touch. Releasing costs nothing recorded: the pages come back from the page
    /// cache on the next read. A budgeted map also faults one page at a time where the kernel allows it
    /// (``Environment/mapsOnePagePerFault``), so that a read adds only the page it reads to the resident set.
    public var mappedMemoryBudget: Int?
    /// Open an existing environment without writing to it (`MDB_RDONLY`): every write transaction fails with
    /// ``LMDBError/readOnly(path:)``, no directory or database is created, and `data.mdb` is left byte for byte as
    /// it was. On a read-only file system LMDB then takes no locks, so no process may write the environment
    /// meanwhile (a backup on read-only or immutable storage, which nothing can).
    public var readOnly: Bool

    /// Options for a durable store: a 1 GiB initial map growing to 1 TiB, 1,024 readers, 16 databases, fsync on,
    /// mapped pages never released, read-write.
    public init(
        initialMapSize: Int = 1 << 30,
        maximumMapSize: Int = 1 << 40,
        maxReaders: UInt32 = 1024,
        maxDatabases: UInt32 = 16,
        noSync: Bool = false,
        fileMode: UInt32 = 0o600,
        mappedMemoryBudget: Int? = nil,
        readOnly: Bool = false
    ) {
        self.initialMapSize = initialMapSize
        self.maximumMapSize = maximumMapSize
        self.maxReaders = maxReaders
        self.maxDatabases = maxDatabases
        self.noSync = noSync
        self.fileMode = fileMode
        self.mappedMemoryBudget = mappedMemoryBudget
        self.readOnly = readOnly
    }
}
