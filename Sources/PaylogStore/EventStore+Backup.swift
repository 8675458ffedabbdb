import Foundation
import LMDBKit

extension EventStore {
    /// Writes a consistent copy of the whole store — log, indexes, views and payload dictionaries — to
    /// `destination`, a new or empty directory, flushed to disk before this returns.
    ///
    /// The copy is the snapshot of one read transaction, so it is safe while the store is in use, in this process
    /// or another (a running `paylog serve`): it holds every event committed when it began and nothing after.
    /// With `compact` (the default) only the pages in use are written, each database's in key order: the free
    /// pages LMDB keeps for reuse are dropped, and the log's leaves lie in the order a replay reads them, which
    /// makes a rebuild of the views from the copy cheaper (Docs/performance.md). A copy that fails part-way (a full
    /// disk) is removed; the store is never written to.
    ///
    /// Open the copy as a store to check it (`paylog backup` verifies its hash chain and compares its last hash
    /// with the store's).
    ///
    /// - Throws: ``EventStoreError/backupFailed(destination:reason:)`` when `destination` is a file, a directory
    ///   that is not empty, the store's own directory or a directory inside it, or the copy cannot be written.
    public func backup(to destination: String, compact: Bool = true) throws(EventStoreError) -> BackupReport {
        let files = FileManager.default
        // Inside the store's directory, the copy would sit among files paylog owns: `paylog import-log` deletes its
        // scratch directories there, and `STORE/service` is the service's own store (its keys were written into a
        // backup made there). A copy is only worth having outside the store it protects.
        let storeDirectory = EventStore.resolvedPath(path)
        if EventStore.resolvedPath(destination).hasPrefix(storeDirectory + "/") {
            throw .backupFailed(
                destination: destination,
                reason: "it lies inside the store's directory \(path), where paylog deletes and writes files of its own; "
                    + "put the copy outside it")
        }
        let dataFile = destination + "/data.mdb"
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: destination, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .backupFailed(destination: destination, reason: "it is a file") }
            let entries: [String]
            do { entries = try files.contentsOfDirectory(atPath: destination) } catch {
                throw .backupFailed(destination: destination, reason: "its entries cannot be listed (\(error))")
            }
            guard entries.isEmpty else {
                let reason = EventStore.resolvedPath(destination) == storeDirectory
                    ? "it is the store's own directory" : "the directory is not empty (a backup never replaces files)"
                throw .backupFailed(destination: destination, reason: reason)
            }
        } else {
            // 0700, as every store directory paylog creates: the copy holds the same personal data.
            do { try Environment.makeDirectory(destination, withParents: true) } catch {
                throw .backupFailed(destination: destination, reason: "the directory cannot be created: \(EventStore.systemReason(error))")
            }
        }
        let sourceBytes = EventStore.fileSize(path + "/data.mdb")
        do {
            try environment.copy(to: destination, compact: compact)
        } catch {
            // The directory was new or empty: whatever data.mdb it holds now is this copy's unfinished file.
            try? files.removeItem(atPath: dataFile)
            throw .backupFailed(destination: destination, reason: EventStore.systemReason(error))
        }
        return BackupReport(
            destination: destination, compacted: compact, sourceFileBytes: sourceBytes,
            copyFileBytes: EventStore.fileSize(dataFile))
    }

    /// What failed about the copy, in the system's words: an `errno` from the destination (`EROFS`, `EACCES`,
    /// `ENOSPC`) without LMDBKit's advice, which speaks of the store (to a read-only destination it said to pass
    /// `--read-only`, an option for the store); LMDB's own errors as LMDBKit describes them.
    static func systemReason(_ error: LMDBError) -> String {
        if case .lmdb(let code, let operation) = error, code > 0, code < 200 {
            return "\(operation) failed: \(String(cString: strerror(code)))"
        }
        return error.description
    }

    /// `path` made absolute, with `.`, `..` and symbolic links resolved as far as the path exists (a destination not
    /// created yet keeps its missing components as written): what to compare when a file must not be written inside
    /// a store's directory (``backup(to:compact:)``, `paylog export -o`).
    public static func resolvedPath(_ path: String) -> String {
        var existing = URL(fileURLWithPath: path).standardizedFileURL
        var missing: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            missing.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        var resolved = existing.resolvingSymlinksInPath()
        for component in missing { resolved.appendPathComponent(component) }
        return resolved.standardizedFileURL.path
    }

    /// The size of the file at `path` in bytes, 0 when it cannot be read.
    private static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
