import CLMDB

/// A handle to a named database inside an ``Environment``. Valid for the environment's lifetime.
public struct Database: Sendable, Hashable {
    /// LMDB's database handle.
    let dbi: MDB_dbi
    /// The database's name.
    public let name: String
}
