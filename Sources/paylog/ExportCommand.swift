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
    @Option(help: "The first global position to export.") var from: UInt64 = 1
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?

    func run() throws {
        let store = try storeOptions.openExisting()
        defer { store.close() }
        var sink: FileHandle = .standardOutput
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: nil) , let handle = FileHandle(forWritingAtPath: output) else {
                throw CLIError("Cannot write \(output).")
            }
            sink = handle
        }
        defer { if output != nil { try? sink.close() } }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var buffer = Data()
        try store.forEach(from: from) { event in
            buffer.append(try encoder.encode(ExportLine(event)))
            buffer.append(0x0A)
            if buffer.count > 1 << 20 {
                sink.write(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
            return true
        }
        sink.write(buffer)
    }
}
