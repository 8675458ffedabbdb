import ArgumentParser
import Foundation
import LMDBKit
import Logging
import PaylogService

/// `paylog serve`: the HTTP service.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the HTTP API (ingest, reads, Square web callbacks, metrics) until SIGTERM or SIGINT.",
        discussion: """
            Requests need `Authorization: Bearer KEY` (make keys with `paylog keys add`), except /health, /ready, \
            /metrics and the Square web callback. On SIGTERM/SIGINT the server stops accepting connections, \
            answers the requests in flight, finishes queued appends and closes the store. See Docs/http-api.md.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "The address to listen on (default 127.0.0.1).") var host: String?
    @Option(help: "The port (default 8080; 0 picks a free one and prints it).") var port: Int?
    @Option(help: ArgumentHelp("A JSON configuration file (see Docs/operations.md).", valueName: "file")) var config: String?

    func run() async throws {
        var settings = ServiceConfiguration()
        if let config {
            do { settings = try ServiceConfiguration.load(from: config) } catch { throw CLIError("\(error)") }
        }
        if let host { settings.host = host }
        if let port { settings.port = port }
        if storeOptions.store != nil || settings.store == nil { settings.store = storeOptions.resolvedPath }
        do { try settings.validate() } catch { throw CLIError("\(error)") }
        let storePath = settings.store!

        var logger = Logger(label: "paylog.serve")
        logger.logLevel = Logger.Level(rawValue: settings.logLevel) ?? .info
        // Docs/operations.md: serve creates the store's missing parent directories (0700), as `keys add` does.
        do { try Environment.makeDirectory(storePath, withParents: true) } catch {
            throw CLIError("Cannot create the store directory \(storePath): \(error)")
        }
        let store = try StoreOptions.open(at: storePath)
        let database: ServiceDatabase
        do { database = try ServiceDatabase(storePath: storePath) } catch {
            store.close()
            throw CLIError("Cannot open the service database in \(storePath)/service: \(error)")
        }
        if (try? APIKeyStore(database: database).list().isEmpty) ?? true {
            logger.warning("no API keys exist yet: only /health, /ready, /metrics and the Square web callback will answer; add one with `paylog keys add --store \(storePath) --name NAME --scopes ingest,read`")
        }
        let service = PaylogService(configuration: settings, store: store, database: database, logger: logger)
        let announcer = logger
        try await service.run { host, port in
            announcer.info("listening", metadata: ["address": "http://\(host):\(port)", "store": "\(storePath)"])
            FileHandle.standardOutput.write(Data("paylog serve: listening on http://\(host):\(port) (store \(storePath))\n".utf8))
        }
        logger.info("stopped; the store is closed")
    }
}
