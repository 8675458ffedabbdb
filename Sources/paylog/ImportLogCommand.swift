import ArgumentParser
import Foundation
import PaylogPresentation
import PaylogStore
import PaylogWorkflow

/// `paylog import-log FILE|-`: restores an export into an empty store.
struct ImportLogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-log",
        abstract: "Restore a `paylog export` into an empty store, keeping ids, positions, times and hashes.",
        discussion: "Every event's hash is recomputed and must match the export, so an altered export is refused.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The export file, or - for standard input.") var file: String
    @Flag(help: "Print a JSON summary.") var json = false

    func run() async throws {
        let store = try storeOptions.open()
        defer { store.close() }
        let start = try store.lastPosition()
        let decoder = JSONDecoder()
        var batch: [RecordedEvent] = []
        var imported = 0
        for (index, line) in try LineReader(path: file).enumerated() where !line.isEmpty {
            let event: RecordedEvent
            do {
                event = try decoder.decode(ExportLine.self, from: Data(line.utf8)).recordedEvent()
            } catch {
                throw CLIError("Line \(index + 1) of \(file) is not an export line: \(error). \(imported) events were imported before it.")
            }
            if imported == 0 && batch.isEmpty && event.position != start + 1 {
                throw CLIError("The export starts at position \(event.position) but the store's next position is \(start + 1); import into an empty store.")
            }
            batch.append(event)
            if batch.count == 2000 {
                try await store.importEvents(batch)
                imported += batch.count
                batch.removeAll(keepingCapacity: true)
            }
        }
        try await store.importEvents(batch)
        imported += batch.count
        let report = try store.verifyChain()
        if json {
            print(try JSONText.encode(["imported": imported, "last_position": report.lastPosition, "chain_ok": report.isIntact]))
        } else {
            print("imported \(imported) events; log now ends at position \(report.lastPosition); chain \(report.isIntact ? "intact" : "BROKEN")")
        }
        if !report.isIntact { throw ExitCode(3) }
    }
}
