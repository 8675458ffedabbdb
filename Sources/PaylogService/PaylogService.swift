#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import Logging
import NIOCore
import PaylogStore
import PaylogWorkflow
import ServiceLifecycle

/// The paylog HTTP service: the same workflow, views and rules as the CLI, behind a versioned JSON API with
/// API keys, idempotent POSTs, body limits and metrics. See `Docs/http-api.md`.
public struct PaylogService: Sendable {
    /// How the service runs.
    public let configuration: ServiceConfiguration
    /// The event log it records into.
    public let store: EventStore
    /// API keys and idempotency records.
    public let database: ServiceDatabase
    /// Its metrics (served at `/metrics`).
    public let metrics: ServiceMetrics
    let workflow: PaymentWorkflow
    /// The port the server listens on once it runs (``ServiceConfiguration/port`` may be 0).
    let listening = ListeningPort()
    let keys: APIKeyStore
    let idempotency: IdempotencyStore
    let logger: Logger

    /// A service over an open store and service database.
    public init(configuration: ServiceConfiguration, store: EventStore, database: ServiceDatabase, logger: Logger) {
        self.init(configuration: configuration, store: store, database: database, logger: logger, contentionAttempts: 20)
    }

    /// A service whose workflow decides an observation again at most `contentionAttempts` times when concurrent
    /// writers move its payment on (``PaylogWorkflow/PaymentWorkflow/contentionAttempts``): tests set 1 to meet
    /// `409 contention` without depending on the machine's timing.
    init(
        configuration: ServiceConfiguration, store: EventStore, database: ServiceDatabase, logger: Logger,
        contentionAttempts: Int
    ) {
        self.configuration = configuration
        self.store = store
        self.database = database
        self.metrics = ServiceMetrics()
        self.workflow = PaymentWorkflow(store: store, actor: "http", contentionAttempts: contentionAttempts)
        self.keys = APIKeyStore(database: database)
        self.idempotency = IdempotencyStore(database: database)
        self.logger = logger
        metrics.observe(store)
    }

    /// The HTTP application: the router on `configuration.host:port`, plus the service that closes the store
    /// once the server has drained on graceful shutdown. Run it with ``run(onListening:)`` or HummingbirdTesting.
    public func application(
        onListening: @escaping @Sendable (String, Int) async -> Void = { _, _ in }
    ) -> some ApplicationProtocol {
        let idle = TimeAmount.nanoseconds(Int64(configuration.idleTimeoutSeconds * 1e9))
        return Application(
            router: router(),
            server: PaylogHTTP1Channel.server(
                configuration: .init(additionalChannelHandlers: [MalformedRequestHandler(), ContinueHandler()], idleTimeout: idle)),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "paylog"),
            services: [StoreCloser(store: store, database: database)],
            onServerRunning: { [listening] channel in
                let port = channel.localAddress?.port ?? configuration.port
                listening.set(port)
                await onListening(configuration.host, port)
            },
            logger: logger)
    }

    /// Serves until SIGTERM or SIGINT, then stops accepting connections, finishes in-flight requests and
    /// queued appends, and closes LMDB.
    /// - Throws: ``ListenError`` when the address cannot be bound (in use, privileged, not this machine's, a host name
    ///   that does not resolve).
    public func run(onListening: @escaping @Sendable (String, Int) async -> Void = { _, _ in }) async throws {
        let group = ServiceGroup(
            configuration: .init(
                services: [application(onListening: onListening)], gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        do { try await group.run() } catch let error as IOError where [EADDRINUSE, EACCES, EADDRNOTAVAIL].contains(error.errnoCode) {
            throw ListenError(host: configuration.host, port: configuration.port, code: error.errnoCode)
        } catch let error as SocketAddressError.UnknownHost {
            throw ListenError(host: configuration.host, port: configuration.port, unresolved: error.errorDescription)
        }
    }
}
