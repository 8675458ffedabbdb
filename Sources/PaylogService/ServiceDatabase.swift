import Foundation
import LMDBKit

/// The service's own small LMDB environment, beside the log at `<store>/service`: API keys and stored
/// idempotent responses. Kept apart from the event log because it is not evidence: it is never exported,
/// chained or replayed, and `paylog keys` can change it while the server runs (LMDB is multi-process safe).
public final class ServiceDatabase: Sendable {
    /// The environment's directory.
    public let path: String
    let environment: Environment
    let keys: Database
    let idempotency: Database

    /// Opens (creating when needed) the service database for the store in directory `storePath`.
    public init(storePath: String) throws(LMDBError) {
        path = storePath.hasSuffix("/") ? storePath + "service" : storePath + "/service"
        // 0700, as every store directory paylog creates (`paylog keys add --store DIR` may be the first to).
        try? Environment.makeDirectory(storePath, withParents: true)
        environment = try Environment(
            path: path, options: EnvironmentOptions(initialMapSize: 1 << 20, maxDatabases: 4, fileMode: 0o600))
        do {
            keys = try environment.openDatabase("keys")
            idempotency = try environment.openDatabase("idempotency")
        } catch {
            environment.close()
            throw (error as? LMDBError) ?? .lmdb(code: -1, operation: "open the service databases: \(error)")
        }
    }

    /// Closes the environment. Later calls fail.
    public func close() {
        environment.close()
    }
}
