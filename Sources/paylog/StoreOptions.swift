import ArgumentParser
import Foundation
import PaylogStore
import PaylogWorkflow

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

    /// Opens the event store with the payment views.
    func open() throws -> EventStore { try StoreOptions.open(at: resolvedPath) }

    /// Opens the store at `path` with paylog's views, or fails with a message naming the path.
    static func open(at path: String) throws -> EventStore {
        do {
            return try PaymentWorkflow.openStore(at: path)
        } catch {
            throw CLIError("Cannot open the store at \(path): \(error)")
        }
    }

    /// A workflow over the opened store, recording `actor` on each event.
    func workflow(actor: String = "cli") throws -> PaymentWorkflow {
        PaymentWorkflow(store: try open(), actor: actor)
    }
}
