import Foundation
import Testing
import TestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("paylog serve as a real process")
struct ServeProcessTests {
    @Test("serves on a free port, takes a key added while it runs, and on SIGTERM drains, closes the store and exits 0")
    func gracefulShutdown() async throws {
        let directory = TemporaryDirectory("paylog-serve")
        defer { directory.remove() }
        let store = directory.path + "/store"
        let added = try PaylogProcess.run(["keys", "add", "--store", store, "--name", "pos", "--scopes", "ingest,read", "--json"])
        #expect(added.status == 0)
        let key = try #require(try PaylogProcess.jsonObject(added.stdout)["key"] as? String)
        #expect(try PaylogProcess.jsonObject(added.stdout)["scopes"] as? [String] == ["ingest", "read"])

        let server = Process()
        server.executableURL = URL(fileURLWithPath: try PaylogProcess.binary())
        server.arguments = ["serve", "--store", store, "--port", "0"]
        let out = Pipe()
        server.standardOutput = out
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { server.terminate() } }
        var announced = ""
        while !announced.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            announced += String(decoding: chunk, as: UTF8.self)
        }
        let port = try #require(announced.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })
        let base = "http://127.0.0.1:\(port)"

        let health = try await Self.request(base + "/health")
        #expect(health.status == 200)
        let created = try await Self.request(
            base + "/v1/payments", method: "POST", key: key,
            body: #"{"payment":"live-1","provider":"sumup","amount":"4.20","currency":"EUR","callback_url":"myshop://done","client_id":"AK"}"#)
        #expect(created.status == 201)
        // A key added while the server runs works at once; a revoked one stops at once.
        let late = try PaylogProcess.run(["keys", "add", "--store", store, "--name", "late", "--scopes", "read", "--json"])
        let lateKey = try #require(try PaylogProcess.jsonObject(late.stdout)["key"] as? String)
        #expect(try await Self.request(base + "/v1/payments/live-1", key: lateKey).status == 200)
        #expect(try PaylogProcess.run(["keys", "revoke", "--store", store, "late"]).status == 0)
        #expect(try await Self.request(base + "/v1/payments/live-1", key: lateKey).status == 401)
        let listed = try PaylogProcess.run(["keys", "list", "--store", store])
        #expect(listed.stdout.contains("pos") && !listed.stdout.contains("late") && !listed.stdout.contains(String(key.suffix(64))))

        kill(server.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(15)
        while server.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!server.isRunning)
        #expect(server.terminationStatus == 0)

        let verify = try PaylogProcess.run(["verify", "--store", store])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        let status = try PaylogProcess.run(["status", "live-1", "--store", store, "--json"])
        #expect(try PaylogProcess.jsonObject(status.stdout)["status"] as? String == "requested")
    }

    static func request(_ url: String, method: String = "GET", key: String? = nil, body: String? = nil) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        if let body { request.httpBody = Data(body.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}
