import ArgumentParser
import Foundation
import PaylogStore

/// `paylog export`: writes the log as JSON Lines with positions and hashes.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the log as JSON Lines (every envelope field, payload in base64, chain hash).",
        discussion: "Restore it with `paylog import-log` into an empty store; the restored chain verifies.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var access: ReadOnlyOption
    @Option(help: "The first global position to export.") var from: UInt64 = 1
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?

    func run() throws {
        let store = try storeOptions.openExisting(readOnly: access.readOnly)
        defer { store.close() }
        var sink: FileHandle = .standardOutput
        if let output {
            try Self.refuseInsideStore(output, store: storeOptions.resolvedPath)
            // Opened in place (not `FileManager.createFile`, which writes a new file and renames it over the path:
            // that replaced a device such as /dev/full, or a symbolic link, with a regular file).
            let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw CLIError("Cannot write \(output): \(String(cString: strerror(errno))).") }
            sink = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        }
        defer { if output != nil { try? sink.close() } }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var buffer = Data()
        do {
            // A failed write stops the read and is thrown after it (thrown inside, the store would wrap it).
            var writeError: (any Error)?
            try store.forEach(from: from) { event in
                buffer.append(try encoder.encode(ExportLine(event)))
                buffer.append(0x0A)
                if buffer.count > 1 << 20 {
                    do { try sink.write(contentsOf: buffer) } catch { writeError = error; return false }
                    buffer.removeAll(keepingCapacity: true)
                }
                return true
            }
            if let writeError { throw writeError }
            try sink.write(contentsOf: buffer)
            if let output, Self.isRegularFile(sink) {
                do { try sink.synchronize() } catch { throw CLIError("Cannot flush \(output) to disk: \(error.localizedDescription)") }
            }
        } catch {
            // A partial export must not pass for a whole one: a regular file is removed, anything else is said.
            let removed = output != nil && Self.isRegularFile(sink) && (try? FileManager.default.removeItem(atPath: output!)) != nil
            throw CLIError("The export to \(output ?? "standard output") failed: \(Self.reason(error))"
                + (removed ? "; the partial file was removed." : "; what was written is incomplete."))
        }
    }

    /// What went wrong: the system's words for a failed write, else the error's description.
    static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(underlying.code))) }
        return String(describing: error)
    }

    /// True when `handle` is open on a regular file (not a device, pipe or terminal).
    static func isRegularFile(_ handle: FileHandle) -> Bool {
        var status = stat()
        return fstat(handle.fileDescriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Fails when `output` lies inside the store directory `store`: writing there could overwrite the store's own
    /// files (`-o DIR/data.mdb` replaced the log with its export).
    static func refuseInsideStore(_ output: String, store: String) throws {
        func resolved(_ url: URL) -> String { url.resolvingSymlinksInPath().path }
        let storeDirectory = resolved(URL(fileURLWithPath: store).standardizedFileURL)
        // The directory the file goes in, taken from the absolute URL: `NSString.deletingLastPathComponent` trapped
        // (SIGILL) on a one-character relative path such as `x`, `t/` or `./`.
        let directory = resolved(URL(fileURLWithPath: output).standardizedFileURL.deletingLastPathComponent())
        if directory == storeDirectory || directory.hasPrefix(storeDirectory + "/") {
            throw CLIError("\(output) is inside the store directory \(store): an export there could overwrite the store's "
                + "own files. Write it elsewhere.")
        }
    }
}
