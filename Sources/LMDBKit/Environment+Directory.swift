#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Environment {
    /// Creates directory `path` with mode 0700 — its owner alone may list or enter it (the process's umask can only
    /// narrow that) — and with `withParents`, each missing directory above it first, 0700 too. A directory already
    /// there is left as it is. How paylog creates every directory that holds a store or part of one: a store holds
    /// personal data (SumUp receipt prefills) that only keys with the `audit` scope may see.
    public static func makeDirectory(_ path: String, withParents: Bool = false) throws(LMDBError) {
        if withParents {
            var ancestor = ""
            for (index, part) in path.split(separator: "/", omittingEmptySubsequences: false).dropLast().enumerated() {
                ancestor += index == 0 ? String(part) : "/" + part
                if part.isEmpty || part == "." || part == ".." { continue }
                try makeOneDirectory(ancestor)
            }
        }
        try makeOneDirectory(path)
    }

    private static func makeOneDirectory(_ path: String) throws(LMDBError) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw LMDBError.lmdb(code: errno, operation: "create directory \(path)")
        }
    }
}
