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
    ///   that is not empty, the store's own directory, or the copy cannot be written.
    public func backup(to destination: String, compact: Bool = true) throws(EventStoreError) -> BackupReport {
        let files = FileManager.default
        let dataFile = destination + "/data.mdb"
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: destination, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .backupFailed(destination: destination, reason: "it is a file") }
            let entries: [String]
            do { entries = try files.contentsOfDirectory(atPath: destination) } catch {
                throw .backupFailed(destination: destination, reason: "its entries cannot be listed (\(error))")
            }
            guard entries.isEmpty else {
                let sameStore = URL(fileURLWithPath: destination).resolvingSymlinksInPath().path
                    == URL(fileURLWithPath: path).resolvingSymlinksInPath().path
                let reason = sameStore
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

    /// The size of the file at `path` in bytes, 0 when it cannot be read.
    private static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
