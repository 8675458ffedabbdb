import Foundation
import PaylogStore

/// How `paylog serve` runs. Every field has a default; a `--config` JSON file may set any of them, and
/// command-line options override the file.
///
/// ```json
/// {"host":"127.0.0.1","port":8080,"store":"/var/lib/paylog","public_base_url":"https://pay.example.com",
///  "max_body_bytes":65536,"max_stream_bytes":33554432,"request_timeout_seconds":30,"idle_timeout_seconds":60,
///  "log_level":"info"}
/// ```
public struct ServiceConfiguration: Sendable, Hashable, Codable {
    /// The address to listen on.
    public var host = "127.0.0.1"
    /// The port (0 picks a free one; the chosen port is logged).
    public var port = 8080
    /// The store directory; the CLI's `--store` / `$PAYLOG_STORE` / `./paylog-data` when absent.
    public var store: String?
    /// The scheme, host and port clients reach the server at, used to record the Square web callback as it
    /// was observed on the wire (`<public_base_url>/v1/callbacks/square?data=…`). Defaults to `http://host:port`
    /// with the port the server is bound to (the one the system picked when `port` is 0).
    public var publicBaseURL: String?
    /// The largest JSON body accepted, in bytes (413 beyond).
    public var maxBodyBytes = 64 * 1024
    /// The largest JSON Lines body (`/v1/observations`, `/v1/reconciliations`) accepted, in bytes.
    public var maxStreamBytes = 32 * 1024 * 1024
    /// How long reading one request's body may take, in seconds (408 beyond).
    public var requestTimeoutSeconds = 30.0
    /// How long an idle keep-alive connection stays open, in seconds.
    public var idleTimeoutSeconds = 60.0
    /// `trace`, `debug`, `info`, `notice`, `warning`, `error` or `critical`.
    public var logLevel = "info"

    /// The defaults.
    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case host, port, store
        case publicBaseURL = "public_base_url"
        case maxBodyBytes = "max_body_bytes"
        case maxStreamBytes = "max_stream_bytes"
        case requestTimeoutSeconds = "request_timeout_seconds"
        case idleTimeoutSeconds = "idle_timeout_seconds"
        case logLevel = "log_level"
    }

    /// Reads any subset of the fields from `decoder`; unknown fields are an error (a typo must not be ignored).
    public init(from decoder: any Decoder) throws {
        let known = Set(CodingKeys.allCases.map(\.stringValue))
        let any = try decoder.container(keyedBy: AnyKey.self)
        if let unknown = any.allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: [unknown], debugDescription: "unknown field \"\(unknown.stringValue)\"; known fields: \(known.sorted().joined(separator: ", "))"))
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        host = try c.decodeIfPresent(String.self, forKey: .host) ?? host
        port = try c.decodeIfPresent(Int.self, forKey: .port) ?? port
        store = try c.decodeIfPresent(String.self, forKey: .store)
        publicBaseURL = try c.decodeIfPresent(String.self, forKey: .publicBaseURL)
        maxBodyBytes = try c.decodeIfPresent(Int.self, forKey: .maxBodyBytes) ?? maxBodyBytes
        maxStreamBytes = try c.decodeIfPresent(Int.self, forKey: .maxStreamBytes) ?? maxStreamBytes
        requestTimeoutSeconds = try c.decodeIfPresent(Double.self, forKey: .requestTimeoutSeconds) ?? requestTimeoutSeconds
        idleTimeoutSeconds = try c.decodeIfPresent(Double.self, forKey: .idleTimeoutSeconds) ?? idleTimeoutSeconds
        logLevel = try c.decodeIfPresent(String.self, forKey: .logLevel) ?? logLevel
    }

    /// Reads a configuration file.
    /// - Throws: ``ServiceConfigurationError`` naming the file and the field.
    public static func load(from path: String) throws(ServiceConfigurationError) -> ServiceConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path) }
        let configuration: ServiceConfiguration
        do {
            configuration = try JSONDecoder().decode(ServiceConfiguration.self, from: data)
        } catch let error as DecodingError {
            throw .invalid(path, error.reason)
        } catch {
            throw .invalid(path, "\(error)")
        }
        try configuration.validate(path)
        return configuration
    }

    /// The longest `request_timeout_seconds` and `idle_timeout_seconds` accepted: one day. A body that takes longer
    /// to arrive, or a connection idle that long, is not a client worth waiting for.
    public static let maximumTimeoutSeconds: Double = 86_400

    /// Checks the values make sense.
    public func validate(_ source: String = "the options") throws(ServiceConfigurationError) {
        if !(0...65535).contains(port) { throw .invalid(source, "port must be 0–65535") }
        if maxBodyBytes < 1024 { throw .invalid(source, "max_body_bytes must be at least 1024") }
        if maxStreamBytes < maxBodyBytes { throw .invalid(source, "max_stream_bytes must be at least max_body_bytes") }
        // Bounded above too: the server turns a timeout into nanoseconds (a 64-bit count), and 1e11 s trapped at the
        // first POST or at start.
        let maximum = Self.maximumTimeoutSeconds
        for (field, value) in [("request_timeout_seconds", requestTimeoutSeconds), ("idle_timeout_seconds", idleTimeoutSeconds)] {
            guard value > 0, value <= maximum else {
                throw .invalid(source, "\(field) must be more than 0 and at most \(Int(maximum)) seconds (one day); got \(value)")
            }
        }
        let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
        if !levels.contains(logLevel) { throw .invalid(source, "log_level must be one of \(levels.joined(separator: ", "))") }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
