import ArgumentParser
import PaylogPresentation
import PaylogStore

/// `paylog stream ID`: prints one stream's events.
struct StreamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream", abstract: "Print one stream's events in version order.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var access: ReadOnlyOption
    @Argument(help: "The stream (payment) id.") var id: String
    @Flag(help: "Newest first.") var backward = false
    @Flag(help: "One JSON object per line.") var json = false

    func run() throws {
        let store = try storeOptions.openExisting(readOnly: access.readOnly)
        defer { store.close() }
        let events = try store.readStream(id, direction: backward ? .backward : .forward)
        guard !events.isEmpty else { throw CLIError("No stream \(id) in the log at \(store.path); check the payment id (`paylog status` lists them).") }
        for event in events {
            if json { print(try JSONText.encode(try EventFormatting.json(event))) } else { print(EventFormatting.line(event)) }
        }
    }
}
