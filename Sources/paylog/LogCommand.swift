import ArgumentParser
import Foundation
import PaylogPresentation
import PaylogStore

/// `paylog log`: prints the whole log from a global position.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Print the log in commit order from a global position.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var access: ReadOnlyOption
    @Option(parsing: .unconditional, help: "The first global position to print.") var from: UInt64 = 1
    @Option(parsing: .unconditional, help: "The most events to print (at least 1).") var limit: Int = 100
    @Flag(help: "One JSON object per line.") var json = false

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1 (got \(limit)).") }
    }

    func run() throws {
        let store = try storeOptions.openExisting(readOnly: access.readOnly)
        defer { store.close() }
        var printed = 0
        try store.forEach(from: from, pageSize: min(limit, 10_000)) { event in
            if json { print(try JSONText.encode(try EventFormatting.json(event))) } else { print(EventFormatting.line(event)) }
            printed += 1
            return printed < limit
        }
        // Said on standard error, so a JSON Lines reader still gets an empty stream: without it, a --from past the
        // end answered with silence, as a log holding nothing would.
        if printed == 0 {
            let last = try store.lastPosition()
            FileHandle.standardError.write(Data(
                (last == 0 ? "The log is empty.\n" : "No event at or after position \(from): the log ends at position \(last).\n").utf8))
        }
    }
}
