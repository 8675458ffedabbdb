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

    /// Opens the event store with the payment views, creating an empty store when none is there yet (for the
    /// commands that record).
    func open() throws -> EventStore { try StoreOptions.open(at: resolvedPath) }

    /// Opens the store for a command that reads what is recorded, or acts on recorded payments: fails, naming the
    /// path, when no store is there. Creating an empty one instead would answer a mistyped `--store` with silence
    /// that reads as a finding ("0 payment(s)", a hash chain that verifies, nothing to expire).
    /// With `readOnly` (``ReadOnlyOption``), the store is opened without writing to it.
    func openExisting(readOnly: Bool = false, forRebuild: Bool = false) throws -> EventStore {
        try StoreOptions.open(at: resolvedPath, mustExist: true, readOnly: readOnly, forRebuild: forRebuild)
    }

    /// A workflow over the store at the resolved path, which must already exist (see ``openExisting()``).
    func existingWorkflow(actor: String = "cli") throws -> PaymentWorkflow {
        PaymentWorkflow(store: try openExisting(), actor: actor)
    }

    /// Fails with a message naming `path` and what to do when it holds no paylog store (no LMDB `data.mdb`).
    static func requireStore(at path: String) throws {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        guard exists, isDirectory.boolValue else {
            throw CLIError(
                "No store at \(path): \(exists ? "it is a file, not a directory" : "the directory does not exist"). "
                    + storeHint)
        }
        let data = (path as NSString).appendingPathComponent("data.mdb")
        var file = stat()
        if stat(data, &file) != 0 {
            // A store paylog created is 0700: to another user its data.mdb looks absent, which it is not.
            if errno == EACCES {
                throw CLIError("Cannot read the store at \(path): permission denied (a store paylog creates is its "
                    + "owner's alone, mode 0700). Run paylog as the user that owns the store (`ls -ld \(path)` names it).")
            }
            throw CLIError("No store at \(path): the directory holds no data.mdb. " + storeHint)
        }
        // LMDB would make an empty file (a failed copy, say) a new, empty store.
        let size = (try? FileManager.default.attributesOfItem(atPath: data)[.size] as? NSNumber)?.intValue ?? 0
        guard size > 0 else {
            throw CLIError("No store at \(path): its data.mdb is empty (0 bytes), not a store; a copy of a store that "
                + "failed leaves one. Restore the store from a backup or an export (paylog import-log).")
        }
    }

    /// What to do when a reading command finds no store.
    private static let storeHint =
        "Pass the store's directory with --store DIR or $PAYLOG_STORE (default ./paylog-data); only the commands "
        + "that record (demo, ingest, request, switch, callback, fail, import-log, serve, keys add) create a store."

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
    /// fails with a message naming the path. With `mustExist`, a path that holds no store fails (after the budget is
    /// checked) instead of getting an empty one; with `readOnly`, the store is opened without writing to it.
    /// `forRebuild`: the caller rebuilds every view next, so a damaged live view does not stop the open
    /// (``PaylogStore/EventStore/init(path:options:projections:payloadDictionary:forRebuild:)``).
    static func open(at path: String, mustExist: Bool = false, readOnly: Bool = false, forRebuild: Bool = false) throws -> EventStore {
        let budget = try mappedMemoryBudget()
        if mustExist { try requireStore(at: path) }
        if FileManager.default.fileExists(atPath: ImportScratch.markerPath(in: path)) {
            throw CLIError(
                "The store at \(path) holds an unfinished import (\(ImportScratch.markerName) is there): `paylog "
                    + "import-log` was stopped (killed, or the disk filled) after it began writing, so the log is cut "
                    + "off, although its chain verifies, and holds nothing but the export's first events (the import "
                    + "has the store to itself while it writes). Remove \(path)/data.mdb and \(path)/"
                    + "\(ImportScratch.markerName), keep \(path)/service (the API keys), and run import-log again.")
        }
        do {
            return try PaymentWorkflow.openStore(at: path, mappedMemoryBudget: budget, readOnly: readOnly, forRebuild: forRebuild)
        } catch let error where error.chainDamage != nil {
            throw ChainDamageAtOpen(path: path, error: error)
        } catch {
            throw CLIError("Cannot open the store at \(path): \(error)")
        }
    }

    /// A failure reading payment `id`'s history as the person at the terminal should read it: an unknown payment is
    /// named as one this store has not recorded (the recording commands' advice to record its request first does
    /// not fit someone investigating it).
    func historyError(_ error: any Error, payment id: String) -> CLIError {
        if case .rejected(.unknownPayment)? = error as? WorkflowError {
            return CLIError(
                "No payment \(id) is recorded in the store at \(resolvedPath). Check the id (`paylog status` lists the "
                    + "payments, `paylog status --day YYYY-MM-DD` those of a day) and the --store path.")
        }
        return CLIError("\(error)")
    }

    /// A workflow over the opened store, recording `actor` on each event.
    func workflow(actor: String = "cli") throws -> PaymentWorkflow {
        PaymentWorkflow(store: try open(), actor: actor)
    }
}
