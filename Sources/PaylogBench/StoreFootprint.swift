import CLMDB

/// The bytes an LMDB environment really uses: (last page number + 1) × page size, from `mdb_env_info` and
/// `mdb_env_stat`. `data.mdb` itself is as large as the memory map, which is sparse, so its size says little.
enum StoreFootprint {
    /// The used bytes of the environment in directory `path`. Opens it read-only; the caller must have closed
    /// every other handle on it in this process (LMDB forbids two in one process).
    static func usedBytes(ofEnvironmentAt path: String) throws(BenchError) -> Int {
        var handle: OpaquePointer?
        try RawLMDBBaseline.check(mdb_env_create(&handle), "environment create for measuring \(path)")
        guard let env = handle else { throw .lmdb(operation: "environment create for measuring \(path)", code: -1) }
        defer { mdb_env_close(env) }
        try RawLMDBBaseline.check(mdb_env_set_maxdbs(env, 64), "set max databases")
        try RawLMDBBaseline.check(mdb_env_open(env, path, UInt32(MDB_RDONLY | MDB_NOTLS), 0o644), "read-only open of \(path)")
        return usedBytes(of: env)
    }

    /// The used bytes of an open environment.
    static func usedBytes(of env: OpaquePointer) -> Int {
        var info = MDB_envinfo()
        var stat = MDB_stat()
        mdb_env_info(env, &info)
        mdb_env_stat(env, &stat)
        return (info.me_last_pgno + 1) * Int(stat.ms_psize)
    }
}
