import Foundation

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

    /// Creates the scratch directory, after removing those of imports whose process is gone.
    func create() throws {
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: storeDirectory)) ?? [] where name.hasPrefix(Self.prefix) {
            guard let pid = pid_t(name.dropFirst(Self.prefix.count)), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? manager.removeItem(atPath: (storeDirectory as NSString).appendingPathComponent(name))
        }
        try? manager.removeItem(atPath: path)
        do {
            try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CLIError("Cannot create the import's scratch directory \(path): \(error.localizedDescription)")
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

    /// Removes the scratch directory and all in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
