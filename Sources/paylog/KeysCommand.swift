import ArgumentParser
import Foundation
import PaylogPresentation
import PaylogService

/// `paylog keys`: API keys for `paylog serve`.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Add, list and revoke API keys for paylog serve.",
        discussion: "Only a SHA-256 of each key's secret is stored (in STORE/service). Works while the server runs.",
        subcommands: [Add.self, List.self, Revoke.self])

    /// `paylog keys add`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a key and print it once.")
        @OptionGroup var storeOptions: StoreOptions
        @Option(help: "A unique name for the key (letters, digits, - _ .).") var name: String
        @Option(help: "Comma-separated scopes: ingest, read, audit, admin.") var scopes: String
        @Flag(help: "Print {\"name\",\"key\",\"scopes\"} as JSON.") var json = false

        /// A malformed name or scope list is a malformed option value (exit 64), checked before any store is opened.
        func validate() throws {
            do throws(APIKeyError) {
                try APIKeyStore.checkName(name)
                _ = try APIKeyScope.parseList(scopes)
            } catch {
                throw ValidationError(error.description)
            }
        }

        func run() throws {
            try KeysCommand.withKeys(storeOptions) { keys in
                let issued = try keys.add(name: name, scopes: try APIKeyScope.parseList(scopes))
                if json {
                    print(try JSONText.encode(["name": issued.name, "key": issued.key, "scopes": issued.scopes.map(\.rawValue)]))
                } else {
                    print(issued.key)
                    FileHandle.standardError.write(Data("Key '\(issued.name)' (\(issued.scopes.map(\.rawValue).joined(separator: ","))) added. It is shown only now: store it safely.\n".utf8))
                }
            }
        }
    }

    /// `paylog keys list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List keys: name, scopes, id, created (never the secret).")
        @OptionGroup var storeOptions: StoreOptions
        @Flag(help: "Print one JSON object per key.") var json = false

        func run() throws {
            // A store no key was ever added to: nothing to list, and no key database is created to say so.
            guard try KeysCommand.keyDatabaseExists(storeOptions) else {
                if !json { print(Output.table(["name", "scopes", "id", "created"], []) + "\n0 key(s)") }
                return
            }
            try KeysCommand.withKeys(storeOptions) { keys in
                let all = try keys.list()
                if json {
                    for key in all {
                        print(try JSONText.encode([
                            "name": key.name, "id": key.id, "scopes": key.scopes.map(\.rawValue), "created_at": key.createdAt,
                        ]))
                    }
                } else {
                    print(Output.table(
                        ["name", "scopes", "id", "created"],
                        all.map { [$0.name, $0.scopes.map(\.rawValue).joined(separator: ","), "pk_\($0.id)_…", $0.createdAt] }))
                    print("\(all.count) key(s)")
                }
            }
        }
    }

    /// `paylog keys revoke`.
    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key by name; it is refused (401) from then on.")
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The key's name.") var name: String

        func run() throws {
            guard try KeysCommand.keyDatabaseExists(storeOptions) else {
                throw CLIError("No key named '\(name)': no key was ever added to the store at \(storeOptions.resolvedPath).")
            }
            try KeysCommand.withKeys(storeOptions) { keys in
                try keys.revoke(name: name)
                print("Key '\(name)' revoked.")
            }
        }
    }

    /// Whether the store at `options`' path has a key database (`STORE/service`), for the subcommands that only
    /// read or revoke keys: they create nothing. Without one, the path must still hold a store
    /// (``StoreOptions/requireStore(at:)``), so that a mistyped `--store` fails, naming the path, instead of
    /// answering "0 key(s)" as if that were the real store's answer.
    static func keyDatabaseExists(_ options: StoreOptions) throws -> Bool {
        var isDirectory: ObjCBool = false
        let service = (options.resolvedPath as NSString).appendingPathComponent("service")
        if FileManager.default.fileExists(atPath: service, isDirectory: &isDirectory), isDirectory.boolValue { return true }
        try StoreOptions.requireStore(at: options.resolvedPath)
        return false
    }

    static func withKeys(_ options: StoreOptions, _ body: (APIKeyStore) throws -> Void) throws {
        let database: ServiceDatabase
        do { database = try ServiceDatabase(storePath: options.resolvedPath) } catch {
            throw CLIError("Cannot open the key database in \(options.resolvedPath)/service: \(error)")
        }
        defer { database.close() }
        do { try body(APIKeyStore(database: database)) } catch let error as APIKeyError { throw CLIError(error.description) }
    }
}
