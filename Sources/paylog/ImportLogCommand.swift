import ArgumentParser
import Foundation
import PaylogPresentation
import PaylogStore
import PaylogWorkflow

/// `paylog import-log FILE|-`: restores an export into an empty store.
///
/// The export is read twice: first into a scratch store inside the store's directory, where every event goes through
/// the same checks as the real import (positions, versions, ids, tags, each recomputed hash), then, only when all of
/// it passed, into the store. The store's appends commit in batches, so checking while writing would leave the events
/// before an altered one in the store: a shorter log whose chain verifies.
struct ImportLogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-log",
        abstract: "Restore a `paylog export` into an empty store, keeping ids, positions, times and hashes.",
        discussion: """
            Every event's hash is recomputed and must match the export, so an altered export is refused. The whole \
            export is checked in a scratch store before anything is written, so a refused export leaves the store \
            empty (it takes twice the time, and the scratch store's room on disk until the check ends).
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The export file, or - for standard input.") var file: String
    @Flag(help: "Print a JSON summary.") var json = false

    /// Events per import transaction.
    static let batchSize = 2_000

    /// Refuses a store that holds events: an export is restored into an empty store only. Also one that holds none
    /// but whose chain is broken (exit 3): its events and head deleted behind paylog's back, with its views still
    /// standing where the log ended (``PaylogStore/ChainReport/isCutShort``), the damage's only trace, which the
    /// import would overwrite.
    static func requireEmpty(_ store: EventStore, at path: String) throws {
        let held = try store.lastPosition()
        guard held == 0 else {
            throw CLIError("The store at \(path) already holds \(held) events; import-log restores an export into an empty "
                + "store only: give --store a new directory (it is created) and point the server or commands at it.")
        }
        let chain = try store.verifyChain()
        guard chain.isIntact else {
            FileHandle.standardError.write(Data((
                "Error: The store at \(path) holds no events, but its chain is broken at position "
                    + "\(chain.firstBrokenPosition!): \(chain.problem ?? ""). Nothing was imported: the import would "
                    + "overwrite that trace. Keep a copy of the directory as evidence, and import into a new directory "
                    + "(--store NEW).\n").utf8))
            throw ExitCode(3)
        }
    }

    func run() async throws {
        let path = storeOptions.resolvedPath
        ImportScratch.removeAbandoned(in: path)
        let store = try storeOptions.open()
        defer { store.close() }
        // A store that holds events is refused for that, whether or not another process has it open.
        try Self.requireEmpty(store, at: path)
        // The import writes positions from 1 on: an append by another process (a running `paylog serve`, a `paylog
        // request`) between the checks and the import would be acknowledged, then locked away behind the
        // unfinished-import marker. So the store is this process's alone until the import ends, and it is checked
        // empty again once it is.
        try store.takeSoleUse(for: "import an export into \(path)")
        try Self.requireEmpty(store, at: path)
        let scratch = ImportScratch(storeDirectory: path)
        try scratch.create()
        defer { scratch.remove() }
        let input = file == "-" ? try scratch.spoolStandardInput() : file
        let check = try StoreOptions.open(at: scratch.storePath)
        let checked: Int
        do {
            checked = try await Self.importLines(of: input, into: check)
            check.close()
        } catch {
            check.close()
            throw CLIError("\(error) Nothing was imported into \(path): the whole export is checked before any of it is written.")
        }
        // Its room on disk goes to the import; and until the import completes, the store says it is unfinished, so
        // that no command takes a cut-off restore (killed, or a full disk) for the whole log.
        scratch.removeStore()
        try scratch.markInProgress(events: checked)
        let imported: Int
        do {
            imported = try await Self.importLines(of: input, into: store)
        } catch {
            throw CLIError("\(error) The export passed its check, so this is the store's failure, not the export's. "
                + "The store holds an unfinished import and will not open; nothing else wrote to it meanwhile (the "
                + "import had it to itself), so it holds only the export's first events: remove \(path)/data.mdb and "
                + "import again (\(path)/service, the API keys, is not part of the import).")
        }
        scratch.clearInProgress()
        let report = try store.verifyChain()
        if json {
            var object: [String: Any] = ["imported": imported, "last_position": report.lastPosition, "chain_ok": report.isIntact]
            if let hash = report.headHash { object["head_hash"] = hash }
            print(try JSONText.encode(object))
        } else {
            print("imported \(imported) events; log now ends at position \(report.lastPosition); chain \(report.isIntact ? "intact" : "BROKEN")"
                + (report.headHash.map { "; head hash \($0)" } ?? ""))
            // A shorter export verifies too: only the source's head says whether this is all of it.
            print("compare the position and head hash with `paylog verify` of the source: an export cut short imports as a shorter log that verifies")
        }
        if !report.isIntact { throw ExitCode(3) }
    }

    /// Batches handed to decoding beyond the next one to import: while the writer imports one batch, up to three more
    /// are decoded on the two cores.
    static let decodingAhead = 2

    /// Imports every line of the export at `path` into `store`, which must be empty, in batches; returns the events
    /// imported. Fails at the first line that is not an export line or an event the store refuses.
    ///
    /// A pipeline: lines are read here in batches of ``batchSize``; each batch is decoded in a task of its own (JSON,
    /// base64, hash: most of an import's work), up to three ahead (``decodingAhead``), on both cores, while the
    /// writer imports the batch before. Batches are imported one after the other, in order, and a failure is
    /// reported in the file's order: an import's failure before a later batch's decoding failure, a bad line before a
    /// read error after it. Nothing is imported after the first failure, and nothing is being imported when this
    /// returns or throws.
    /// (One batch at a time, reading, decoding and importing took 10 s for 200,000 events on the benchmark machine;
    /// Docs/performance-history.md, forty-sixth round.)
    static func importLines(of path: String, into store: EventStore) async throws -> Int {
        let reader = try LineReader(path: path)
        var batch: [(number: Int, line: String, problem: String?)] = []
        batch.reserveCapacity(batchSize)
        var decoding: [Task<[RecordedEvent], any Error>] = []
        var importing: Task<Void, any Error>?
        var imported = 0
        // Batches handed to decoding so far: the first one also checks that the export starts at position 1.
        var handed = 0
        // Waits for the batch being imported, then hands the oldest decoded batch to the store.
        func importOldest() async throws {
            let oldest = decoding.removeFirst()
            try await importing?.value
            importing = nil
            let events = try await oldest.value
            imported += events.count
            importing = Task { try await store.importEvents(events) }
        }
        do {
            for (index, line) in reader.enumerated() where !line.isEmpty {
                batch.append((index + 1, line, reader.problemWithLastLine))
                guard batch.count == batchSize else { continue }
                decoding.append(decode(batch, of: path, first: handed == 0))
                handed += 1
                batch.removeAll(keepingCapacity: true)
                if decoding.count > decodingAhead { try await importOldest() }
            }
            if let readError = reader.readError {
                // The whole batches read before the error are imported, and a bad line before it is reported first.
                while !decoding.isEmpty { try await importOldest() }
                try await importing?.value
                importing = nil
                _ = try await decode(batch, of: path, first: handed == 0).value
                throw CLIError("Reading \(path) stopped after \(imported + batch.count) events at an error: \(readError).")
            }
            decoding.append(decode(batch, of: path, first: handed == 0))
            while !decoding.isEmpty { try await importOldest() }
            try await importing?.value
            importing = nil
        } catch {
            // No import is left running once this throws (the one in flight, if any, is the one that failed), and
            // the batches still decoding stop at their next line.
            for task in decoding { task.cancel() }
            _ = try? await importing?.value
            throw error
        }
        return imported
    }

    /// Decodes `batch`'s lines of the export at `path` into events, in a task of its own; fails at the first line
    /// that is not valid UTF-8 or not an export line, and, for the `first` batch of the file, when its first event is
    /// not at position 1 (checked right after that line, as one pass through the file would). Stops early, with
    /// `CancellationError`, once cancelled (an earlier batch failed).
    private static func decode(
        _ batch: [(number: Int, line: String, problem: String?)], of path: String, first: Bool
    ) -> Task<[RecordedEvent], any Error> {
        Task {
            let decoder = JSONDecoder()
            var events: [RecordedEvent] = []
            events.reserveCapacity(batch.count)
            for (number, line, problem) in batch {
                try Task.checkCancellation()
                if let problem { throw CLIError("Line \(number) of \(path) is \(problem).") }
                let event: RecordedEvent
                do {
                    event = try decoder.decode(ExportLine.self, from: Data(line.utf8)).recordedEvent()
                } catch {
                    if let damaged = try? decoder.decode(DamagedExportLine.self, from: Data(line.utf8)) {
                        throw CLIError("Line \(number) of \(path) stands for the record at position \(damaged.position), "
                            + "which the exporting store could not read (\(damaged.damaged)): the export of a damaged store "
                            + "is evidence of the damage, not a log to restore: restore from a backup or an export that "
                            + "verifies.")
                    }
                    // A refused field's reason is a sentence of its own (an EventStoreError ends with its period).
                    let reason = (error as? DecodingError)?.reason ?? "\(error)"
                    throw CLIError("Line \(number) of \(path) is not an export line: \(reason)\(reason.hasSuffix(".") ? "" : ".")")
                }
                if first && events.isEmpty && event.position != 1 {
                    throw CLIError("The export starts at position \(event.position), not 1: it is not a whole log.")
                }
                events.append(event)
            }
            return events
        }
    }
}
