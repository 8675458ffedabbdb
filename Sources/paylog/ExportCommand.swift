import ArgumentParser
import Foundation
import PaylogStore
import Synchronization

/// `paylog export`: writes the log as JSON Lines with positions and hashes.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the log as JSON Lines (every envelope field, payload in base64, chain hash).",
        discussion: "Restore it with `paylog import-log` into an empty store; the restored chain verifies.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var access: ReadOnlyOption
    @Option(parsing: .unconditional, help: "The first global position to export.") var from: UInt64 = 1
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?

    func run() throws {
        let store = try storeOptions.openExisting(readOnly: access.readOnly)
        defer { store.close() }
        var sink: FileHandle = .standardOutput
        // A regular file is written beside its path and renamed over it once complete and on disk, so that a failed
        // or killed export leaves the file that was there (last night's export, say) as it was, never a cut-off one.
        var replacing: (partial: String, final: String)?
        if let output {
            try Self.refuseInsideStore(output, store: storeOptions.resolvedPath)
            if output.hasSuffix("/") { throw CLIError("Cannot write \(output): \(String(cString: strerror(EISDIR))).") }
            var status = stat()
            let exists = stat(output, &status) == 0
            if exists && (status.st_mode & S_IFMT) != S_IFREG {
                // A device or pipe (/dev/full, a FIFO) is opened in place: there is no file to keep.
                let descriptor = open(output, O_WRONLY | O_CLOEXEC)
                guard descriptor >= 0 else { throw CLIError("Cannot write \(output): \(String(cString: strerror(errno))).") }
                sink = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            } else {
                // Through a symbolic link, the file it names is the one replaced; the link stays.
                let final = exists ? URL(fileURLWithPath: output).resolvingSymlinksInPath().path : output
                let partial = Self.partialPath(for: final)
                let descriptor = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                guard descriptor >= 0 else { throw CLIError("Cannot write \(output): \(String(cString: strerror(errno))).") }
                sink = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
                replacing = (partial, final)
            }
        }
        defer { if output != nil { try? sink.close() } }
        // Where a file export of a store whose chain is broken goes instead of over FILE (set once written).
        var damagedCopy: String?
        var chain: ChainReport?
        var damagedRecords = 0
        do {
            // Pages of records, each read in a read transaction of its own and written after it: no snapshot is held
            // while the output waits (a pipe to a slow reader). A record that does not decode is written as a
            // `damaged` line and the export goes on (``DamagedExportLine``); the chain check below then fails.
            var next = max(from, 1)
            while true {
                let page = try store.storedRecords(from: next, limit: Self.chunkEvents)
                guard let last = page.last else { break }
                let (lines, damaged) = try Self.lines(page, store: store)
                try sink.write(contentsOf: lines)
                damagedRecords += damaged
                if page.count < Self.chunkEvents { break }
                next = last.position + 1
            }
            // The export copies the log as stored, damage included (what a forensic review needs), so it passes for
            // evidence only when the store's chain verifies; checked before a file export replaces FILE, so that a
            // damaged log never takes the place of last night's good export.
            let report = try store.verifyChain()
            chain = report
            if let replacing {
                do { try sink.synchronize() } catch { throw CLIError("Cannot flush \(replacing.final) to disk: \(error.localizedDescription)") }
                let target = report.isIntact ? replacing.final : "\(replacing.final).chain-broken-\(getpid())"
                guard rename(replacing.partial, target) == 0 else {
                    throw CLIError("Cannot rename the finished export to \(target): \(String(cString: strerror(errno)))")
                }
                Self.syncDirectory(of: target)
                if !report.isIntact { damagedCopy = target }
            }
        } catch {
            // A partial export must not pass for a whole one: a partial file is removed, anything else is said.
            if let replacing {
                unlink(replacing.partial)
                let kept = FileManager.default.fileExists(atPath: replacing.final)
                throw CLIError("The export to \(output ?? replacing.final) failed: \(Self.reason(error)); nothing was "
                    + (kept ? "written over it: the file is as it was before." : "written (the partial file was removed)."))
            }
            throw CLIError("The export to \(output ?? "standard output") failed: \(Self.reason(error)); what was written "
                + "is incomplete.")
        }
        // Else exit 3, as `paylog verify`, naming where it breaks.
        if let chain, !chain.isIntact {
            let whereWritten = damagedCopy.map {
                "The export was written to \($0), the log as stored, damage included; \(output ?? $0) was left as it was. "
            } ?? "The export holds the log as stored, damage included. "
            if chain.isCutShort {
                // The events left chain intact: this export would import as a shorter log that verifies.
                FileHandle.standardError.write(Data((
                    "Error: the store's log looks cut short: \(chain.problem ?? ""). The export holds the log as it now "
                        + "stands, up to position \(chain.lastPosition), which `paylog import-log` would accept as a shorter "
                        + "log that verifies: do not restore from it. " + whereWritten + "Keep a copy of the store "
                        + "directory, and restore from a backup copy whose `paylog verify` prints the head position and "
                        + "hash you kept.\n").utf8))
                throw ExitCode(3)
            }
            FileHandle.standardError.write(Data((
                "Error: the store's chain is broken at position \(chain.firstBrokenPosition!): "
                    + "\(chain.problem.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 } ?? ""). "
                    + (damagedRecords > 0
                        ? "\(damagedRecords) record(s) did not decode: each is a line with `damaged` (why) and "
                            + "`record_base64` (its bytes as stored) in place of the event. " : "")
                    + whereWritten + "`paylog import-log` will refuse it; run `paylog verify` on the store, and restore "
                    + "from a backup that verifies.\n").utf8))
            throw ExitCode(3)
        }
    }

    /// Events encoded and written at a time.
    static let chunkEvents = 4_096

    /// `records` as export lines, each ending in a line feed, in order, and how many of them are damaged lines
    /// (``PaylogStore/DamagedExportLine``: a record that does not decode, or whose payload does not decompress). The
    /// two halves are encoded at once, one per core: encoding (JSON, base64, the times) is most of an export's work
    /// (1 M events: 12.3–12.5 s on one core before, 7.3–7.8 s since). Called outside any read transaction of `store`,
    /// which it reads the damaged records' bytes from.
    static func lines(_ records: [StoredRecord], store: EventStore) throws -> (Data, damaged: Int) {
        let parts = records.count < 64 ? 1 : 2
        // Per part, its lines in runs: each run's lines, then the record after them that does not decode (its
        // position and problem), if any; its line is written after, with its bytes read from the store. A part
        // without damage is one run, as many bytes as its lines.
        typealias Run = (lines: Data, damaged: (position: UInt64, problem: EventStoreError)?)
        let encoded = Mutex<[Result<[Run], any Error>?]>(Array(repeating: nil, count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let range = (part * records.count / parts)..<((part + 1) * records.count / parts)
            let result = Result { () throws -> [Run] in
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                var runs: [Run] = []
                var data = Data()
                for record in records[range] {
                    let problem: EventStoreError
                    switch record {
                    case .event(let event):
                        do {
                            data.append(try encoder.encode(try ExportLine(event)))
                            data.append(0x0A)
                            continue
                        } catch let error as EventStoreError {
                            problem = error  // a payload that does not decompress
                        }
                    case .damaged(_, let error):
                        problem = error
                    }
                    runs.append((data, (record.position, problem)))
                    data = Data()
                }
                runs.append((data, nil))
                return runs
            }
            encoded.withLock { $0[part] = result }
        }
        let runs = try encoded.withLock { $0 }.flatMap { try $0!.get() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = Data()
        var damaged = 0
        for run in runs {
            data.append(run.lines)
            guard let (position, problem) = run.damaged else { continue }
            damaged += 1
            data.append(try encoder.encode(
                DamagedExportLine(position: position, problem: problem, bytes: try store.storedBytes(at: position))))
            data.append(0x0A)
        }
        return (data, damaged)
    }

    /// Where the export to `final` is written until it is complete: a hidden file beside it, named for this process.
    static func partialPath(for final: String) -> String {
        let url = URL(fileURLWithPath: final)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())").path
    }

    /// Flushes the directory holding `path` to disk, so that the renamed file's name survives a crash of the machine
    /// (best effort: the export is complete either way).
    static func syncDirectory(of path: String) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }

    /// What went wrong: the system's words for a failed write, else the error's description.
    static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(underlying.code))) }
        return String(describing: error)
    }

    /// Fails when `output` lies inside the store directory `store`: writing there could overwrite the store's own
    /// files (`-o DIR/data.mdb` replaced the log with its export).
    static func refuseInsideStore(_ output: String, store: String) throws {
        let storeDirectory = EventStore.resolvedPath(store)
        // The directory the file goes in, taken from the absolute URL: `NSString.deletingLastPathComponent` trapped
        // (SIGILL) on a one-character relative path such as `x`, `t/` or `./`.
        let directory = EventStore.resolvedPath(URL(fileURLWithPath: output).standardizedFileURL.deletingLastPathComponent().path)
        if directory == storeDirectory || directory.hasPrefix(storeDirectory + "/") {
            throw CLIError("\(output) is inside the store directory \(store): an export there could overwrite the store's "
                + "own files. Write it elsewhere.")
        }
    }
}
