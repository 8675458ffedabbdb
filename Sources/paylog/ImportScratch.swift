import Foundation
import LMDBKit

/// Where `paylog import-log` checks an export before writing it: a directory inside the store's, holding a scratch
/// store (and standard input's copy when the export comes from there), named after the importing process so that
/// one left by a killed import is recognised and removed by the next.
struct ImportScratch {
    /// The store directory the import writes to.
    let storeDirectory: String
    /// This import's scratch directory.
    let path: String

    /// The prefix of every import's scratch directory, before the process id.
    static let prefix = "import-check-"

    init(storeDirectory: String) {
        self.storeDirectory = storeDirectory
        path = (storeDirectory as NSString).appendingPathComponent(Self.prefix + String(getpid()))
    }

    /// The scratch store's directory.
    var storePath: String { (path as NSString).appendingPathComponent("store") }

    /// The marker a store keeps while an import writes into it: present, the store holds an unfinished import.
    static let markerName = "import-in-progress"

    /// The marker's path in `storeDirectory`.
    static func markerPath(in storeDirectory: String) -> String {
        (storeDirectory as NSString).appendingPathComponent(markerName)
    }

    /// Removes the scratch directories of imports whose process is gone (killed: nothing else removed them).
    static func removeAbandoned(in storeDirectory: String) {
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: storeDirectory)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? manager.removeItem(atPath: (storeDirectory as NSString).appendingPathComponent(name))
        }
    }

    /// Creates the scratch directory, after removing those of imports whose process is gone.
    func create() throws {
        let manager = FileManager.default
        Self.removeAbandoned(in: storeDirectory)
        try? manager.removeItem(atPath: path)
        do {
            // 0700, like the store it is in: it holds a copy of the log being imported.
            try Environment.makeDirectory(path, withParents: true)
        } catch {
            throw CLIError("Cannot create the import's scratch directory \(path): \(error)")
        }
    }

    /// Copies standard input to a file in the scratch directory, so that the export can be read twice; returns its
    /// path.
    func spoolStandardInput() throws -> String {
        let spool = (path as NSString).appendingPathComponent("stdin.jsonl")
        guard FileManager.default.createFile(atPath: spool, contents: nil), let output = FileHandle(forWritingAtPath: spool) else {
            throw CLIError("Cannot create \(spool) to hold standard input.")
        }
        defer { try? output.close() }
        do {
            while let chunk = try FileHandle.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty {
                try output.write(contentsOf: chunk)
            }
            try output.synchronize()
        } catch {
            throw CLIError("Cannot copy standard input to \(spool): \(error.localizedDescription). Nothing was imported.")
        }
        return spool
    }

    /// Removes the scratch store, keeping standard input's copy (the second pass reads it): its room on disk is
    /// needed by the import itself.
    func removeStore() {
        try? FileManager.default.removeItem(atPath: storePath)
    }

    /// Removes the scratch directory and all in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes the marker that says the store holds an unfinished import, durably, before the import writes.
    func markInProgress(events: Int) throws {
        let marker = Self.markerPath(in: storeDirectory)
        let text = "paylog import-log started writing \(events) events into this store and did not finish.\n"
        let descriptor = open(marker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CLIError("Cannot write \(marker): \(String(cString: strerror(errno))). Nothing was imported.") }
        defer { close(descriptor) }
        let written = text.utf8CString.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count - 1) }
        guard written == text.utf8.count, fsync(descriptor) == 0 else {
            throw CLIError("Cannot write \(marker): \(String(cString: strerror(errno))). Nothing was imported.")
        }
    }

    /// Removes the marker once the import is complete.
    func clearInProgress() {
        unlink(Self.markerPath(in: storeDirectory))
    }
}
