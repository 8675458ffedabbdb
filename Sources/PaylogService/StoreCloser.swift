import PaylogStore
import ServiceLifecycle

/// A lifecycle service that owns the open store: it waits for graceful shutdown and then, after the HTTP
/// server listed after it has drained its in-flight requests, finishes queued appends and closes LMDB.
struct StoreCloser: Service {
    let store: EventStore
    let database: ServiceDatabase

    func run() async throws {
        try? await gracefulShutdown()
        store.close()
        database.close()
    }
}
