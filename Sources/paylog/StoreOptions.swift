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

    /// The environment variable that sets the store's mapped-memory budget in MiB; 0 turns the budget off.
    static let mappedMemoryVariable = "PAYLOG_MAPPED_MEMORY_MIB"

    /// The mapped-memory budget in bytes from `$PAYLOG_MAPPED_MEMORY_MIB` (nil for 0: no budget), else
    /// ``EventStore/defaultMappedMemoryBudget``; a value that is not 0 or a whole number of MiB from 16 to 1,048,576
    /// fails with a message naming it, before any store is opened.
    static func mappedMemoryBudget(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> Int? {
        guard let text = environment[mappedMemoryVariable], !text.isEmpty else {
            return EventStore.defaultMappedMemoryBudget
        }
        guard let mebibytes = Int(text), mebibytes == 0 || (16...1_048_576).contains(mebibytes) else {
            throw CLIError(
                "\(mappedMemoryVariable)=\(text) is not a budget: give a whole number of MiB from 16 to 1048576, "
                    + "or 0 to keep every page read mapped (unset: \(EventStore.defaultMappedMemoryBudget >> 20)).")
        }
        return mebibytes == 0 ? nil : mebibytes << 20
    }

    /// Opens the store at `path` with paylog's views and the mapped-memory budget of `$PAYLOG_MAPPED_MEMORY_MIB`, or
    /// fails with a message naming the path.
    static func open(at path: String) throws -> EventStore {
        let budget = try mappedMemoryBudget()
        do {
            return try PaymentWorkflow.openStore(at: path, mappedMemoryBudget: budget)
        } catch {
            throw CLIError("Cannot open the store at \(path): \(error)")
        }
    }

    /// A workflow over the opened store, recording `actor` on each event.
    func workflow(actor: String = "cli") throws -> PaymentWorkflow {
        PaymentWorkflow(store: try open(), actor: actor)
    }
}
