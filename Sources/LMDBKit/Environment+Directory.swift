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

    /// Creates `path` when missing and, when it created it, makes its entry durable in the directory above
    /// (``syncDirectory(_:)``): without that, a crash of the machine could take a new store's whole directory with
    /// it, acknowledged appends and all, on file systems that do not order a directory's entries with its files'
    /// data (XFS, btrfs; ext4's journal happens to).
    private static func makeOneDirectory(_ path: String) throws(LMDBError) {
        if mkdir(path, 0o700) != 0 {
            if errno == EEXIST { return }
            throw LMDBError.lmdb(code: errno, operation: "create directory \(path)")
        }
        try syncDirectory(parent(of: path))
    }

    /// Flushes directory `path`'s entries to disk (`fsync` of the directory itself), so that files and
    /// directories just created in it survive a crash of the machine. A file system that cannot sync a directory
    /// (`EINVAL`, as some network and FUSE file systems answer) is left as it is: nothing more can be done there.
    public static func syncDirectory(_ path: String) throws(LMDBError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw LMDBError.lmdb(code: errno, operation: "open of directory \(path) to flush its entries")
        }
        defer { _ = Glibc.close(descriptor) }
        if fsync(descriptor) != 0 && errno != EINVAL {
            throw LMDBError.lmdb(code: errno, operation: "fsync of directory \(path)")
        }
    }

    /// The directory holding `path`: `.` for a bare name, `/` for a name under the root.
    static func parent(of path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}
