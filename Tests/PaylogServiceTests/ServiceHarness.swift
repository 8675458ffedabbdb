import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
@testable import PaylogService
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

/// A real paylog server on a loopback port over a temporary store, with one key per scope set.
struct ServiceHarness: Sendable {
    let directory: TemporaryDirectory
    let store: EventStore
    let database: ServiceDatabase
    let service: PaylogService
    /// Keys by role: `ingest`, `read`, `audit` (read+audit), `admin`.
    let keys: [String: String]

    /// `contentionAttempts`: how often the service decides an observation again under concurrent writers
    /// (``PaylogWorkflow/PaymentWorkflow/contentionAttempts``; 1 meets `409 contention` whatever the machine's timing).
    init(
        mappedMemoryBudget: Int? = EventStore.defaultMappedMemoryBudget, contentionAttempts: Int = 20,
        configure: (inout ServiceConfiguration) -> Void = { _ in }
    ) throws {
        try self.init(
            directory: TemporaryDirectory("paylog-service"), keys: nil, mappedMemoryBudget: mappedMemoryBudget,
            contentionAttempts: contentionAttempts, configure: configure)
    }

    /// A harness over the store a previous harness left at `storePath`, with its keys.
    init(reopening storePath: String, keys: [String: String]) throws {
        let parent = (storePath as NSString).deletingLastPathComponent
        try self.init(
            directory: TemporaryDirectory(existing: parent), keys: keys,
            mappedMemoryBudget: EventStore.defaultMappedMemoryBudget, contentionAttempts: 20, configure: { _ in })
    }

    private init(
        directory: TemporaryDirectory, keys existing: [String: String]?, mappedMemoryBudget: Int?,
        contentionAttempts: Int, configure: (inout ServiceConfiguration) -> Void
    ) throws {
        self.directory = directory
        store = try PaymentWorkflow.openStore(at: directory.path + "/store", mappedMemoryBudget: mappedMemoryBudget)
        database = try ServiceDatabase(storePath: directory.path + "/store")
        let keyStore = APIKeyStore(database: database)
        var keys: [String: String] = existing ?? [:]
        if existing == nil {
            for (name, scopes) in [("ingest", [APIKeyScope.ingest]), ("read", [.read]), ("audit", [.read, .audit]), ("admin", [.admin])] {
                keys[name] = try keyStore.add(name: name, scopes: scopes).key
            }
        }
        self.keys = keys
        var configuration = ServiceConfiguration()
        configuration.port = 0
        configuration.publicBaseURL = "https://pos.example.test"
        configure(&configuration)
        var logger = Logger(label: "paylog.test")
        logger.logLevel = .critical
        service = PaylogService(
            configuration: configuration, store: store, database: database, logger: logger,
            contentionAttempts: contentionAttempts)
    }

    /// Runs `body` against the live server, then removes the store (the server closes it on shutdown).
    func run(_ body: @escaping @Sendable (Client) async throws -> Void) async throws {
        defer { directory.remove() }
        try await service.application().test(.live) { client in
            try await body(Client(client: client, keys: keys))
        }
    }

    /// Events in the log right now (only while ``run(_:)`` runs: the server closes the store when it stops).
    func eventCount() throws -> UInt64 { try store.lastPosition() }

    /// A thin JSON client over HummingbirdTesting's live client.
    struct Client: Sendable {
        let client: any TestClientProtocol
        let keys: [String: String]

        /// A request; `key` is a role in ``ServiceHarness/keys`` or a literal `Authorization` value after `raw:`.
        func send(
            _ method: HTTPRequest.Method, _ uri: String, key: String? = nil, body: String? = nil,
            idempotencyKey: String? = nil, moreFields: [HTTPField] = []
        ) async throws -> Reply {
            try await send(
                method, uri, key: key, bytes: body.map { Array($0.utf8) }, idempotencyKey: idempotencyKey, moreFields: moreFields)
        }

        /// A request whose body is `bytes` exactly (which need not be UTF-8); `moreFields` are appended to its header
        /// (a field given twice, say).
        func send(
            _ method: HTTPRequest.Method, _ uri: String, key: String? = nil, bytes: [UInt8]?, idempotencyKey: String? = nil,
            moreFields: [HTTPField] = []
        ) async throws -> Reply {
            var fields = headers(key: key, idempotencyKey: idempotencyKey)
            fields.append(contentsOf: moreFields)
            let response = try await client.execute(
                uri: uri, method: method, headers: fields, body: bytes.map { ByteBuffer(bytes: $0) })
            return Reply(status: response.status.code, headers: response.headers, body: String(buffer: response.body))
        }

        /// `count` requests sent at once, each on a connection of its own, opened before any is sent: the client's one
        /// connection would not do, since HTTP/1.1 answers a connection's requests one after the other. Request `i`
        /// has body `body(i)` and `Idempotency-Key` `idempotencyKey(i)`. The replies, in the requests' order.
        func sendAtOnce(
            _ count: Int, _ method: HTTPRequest.Method, _ uri: String, key: String? = nil,
            body: @escaping @Sendable (Int) -> String?, idempotencyKey: @escaping @Sendable (Int) -> String? = { _ in nil }
        ) async throws -> [Reply] {
            let port = try #require(client.port)
            let connections = (0..<count).map { _ in TestClient(host: "localhost", port: port) }
            for connection in connections { connection.connect() }
            for connection in connections { _ = try await connection.getChannel() }
            let requests = (0..<count).map { index in
                TestClient.Request(
                    uri, method: method, authority: "localhost", headers: headers(key: key, idempotencyKey: idempotencyKey(index)),
                    body: body(index).map { ByteBuffer(string: $0) })
            }
            let replies: Result<[Reply], any Error>
            do {
                replies = .success(try await withThrowingTaskGroup(of: (Int, Reply).self) { group in
                    for (index, (connection, request)) in zip(connections, requests).enumerated() {
                        group.addTask {
                            let response = try await connection.execute(request)
                            let body = String(buffer: response.body ?? ByteBuffer())
                            return (index, Reply(status: response.status.code, headers: response.headers, body: body))
                        }
                    }
                    var replies = [Reply?](repeating: nil, count: count)
                    for try await (index, reply) in group { replies[index] = reply }
                    return replies.map { $0! }
                })
            } catch {
                replies = .failure(error)
            }
            for connection in connections { try await connection.shutdown() }
            return try replies.get()
        }

        /// The headers of a request with API key `key` (see ``send(_:_:key:body:idempotencyKey:)``).
        private func headers(key: String?, idempotencyKey: String?) -> HTTPFields {
            var headers = HTTPFields()
            if let key {
                headers[.authorization] = key.hasPrefix("raw:") ? String(key.dropFirst(4)) : "Bearer \(keys[key]!)"
            }
            if let idempotencyKey { headers[HTTPField.Name("Idempotency-Key")!] = idempotencyKey }
            return headers
        }
    }

    /// A response: status, headers and the body as text and JSON.
    struct Reply: Sendable {
        var status: Int
        var headers: HTTPFields
        var body: String

        /// The body as a JSON object (empty when it is not one).
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]) ?? [:]
        }

        /// The error code of an error body.
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }

        /// The error message of an error body.
        var errorMessage: String { (json["error"] as? [String: Any])?["message"] as? String ?? "" }
    }
}
