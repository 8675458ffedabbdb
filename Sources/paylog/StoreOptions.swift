import ArgumentParser
import Foundation
import PaylogStore

/// The `--store` option every command that touches data takes.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The store directory.", discussion: "Defaults to $PAYLOG_STORE, else ./paylog-data.",
            valueName: "dir"))
    var store: String?

    /// The directory to use: the flag, else `$PAYLOG_STORE`, else `./paylog-data`.
    var resolvedPath: String {
        if let store { return store }
        if let env = ProcessInfo.processInfo.environment["PAYLOG_STORE"], !env.isEmpty { return env }
        return "./paylog-data"
    }

    /// Opens the event store, turning failures into a readable exit.
    func open() throws -> EventStore {
        do {
            return try EventStore(path: resolvedPath)
        } catch {
            throw ValidationError("Cannot open the store at \(resolvedPath): \(error)")
        }
    }
}
