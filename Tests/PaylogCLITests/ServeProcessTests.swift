import Foundation
import Glibc
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
        let key = try Self.addKey(store: store, scopes: "ingest,read")

        let (server, port) = try Self.start(["serve", "--store", store, "--port", "0"])
        defer { if server.isRunning { server.terminate() } }
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

        server.send(SIGTERM)
        let deadline = Date().addingTimeInterval(15)
        while server.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!server.isRunning)
        #expect(server.terminationStatus == 0)

        let verify = try PaylogProcess.run(["verify", "--store", store])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        let status = try PaylogProcess.run(["status", "live-1", "--store", store, "--json"])
        #expect(try PaylogProcess.jsonObject(status.stdout)["status"] as? String == "requested")
    }

    @Test("a port already in use is named, with what to do, and the second server exits 1")
    func portInUse() throws {
        let directory = TemporaryDirectory("paylog-serve")
        defer { directory.remove() }
        let (server, port) = try Self.start(["serve", "--store", directory.path + "/one", "--port", "0"])
        defer { if server.isRunning { server.terminate() } }
        let second = try PaylogProcess.run(["serve", "--store", directory.path + "/two", "--port", String(port)])
        #expect(second.status == 1)
        #expect(second.stderr.contains("Cannot listen on 127.0.0.1:\(port): the address is already in use"), "\(second.stderr)")
        #expect(second.stderr.contains("--port"), "\(second.stderr)")
    }

    @Test("a host that is neither an address nor a name that resolves is named, with what to do; the server exits 1")
    func unresolvableHost() throws {
        let directory = TemporaryDirectory("paylog-serve")
        defer { directory.remove() }
        let run = try PaylogProcess.run(["serve", "--store", directory.path + "/store", "--host", "999.1.1.1", "--port", "0"])
        #expect(run.status == 1)
        #expect(run.stderr.contains(#"Cannot listen on 999.1.1.1:0: "999.1.1.1" is not an IP address"#), "\(run.stderr)")
        #expect(run.stderr.contains("--host") && !run.stderr.contains("SocketAddressError"), "\(run.stderr)")
    }

    @Test("a body that stops arriving is answered 408 at the request timeout, a body of unreadable framing 400; the server goes on")
    func stalledBody() async throws {
        let directory = TemporaryDirectory("paylog-serve")
        defer { directory.remove() }
        let store = directory.path + "/store"
        let key = try Self.addKey(store: store, scopes: "ingest")
        let config = directory.path + "/serve.json"
        try #"{"port":0,"store":"\#(store)","request_timeout_seconds":1,"idle_timeout_seconds":60}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let (server, port) = try Self.start(["serve", "--config", config])
        defer { if server.isRunning { server.terminate() } }

        // 100 bytes declared, one sent, then nothing.
        let head = "POST /v1/payments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(key)\r\nContent-Length: 100\r\n\r\n{"
        let started = Date()
        let text = try Self.exchange(head, port: port)
        let waited = Date().timeIntervalSince(started)
        #expect(text.hasPrefix("HTTP/1.1 408"), "\(text)")
        #expect(text.contains("request_timeout"))
        #expect(waited >= 0.9 && waited < 10, "answered after \(waited) s")
        // A body whose framing cannot be read is the client's error: 400, not a 500 logged as the server's.
        let malformed = "POST /v1/observations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(key)\r\n"
            + "Transfer-Encoding: xchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
        let refused = try Self.exchange(malformed, port: port, untilClosed: true)
        #expect(refused.hasPrefix("HTTP/1.1 400"), "\(refused)")
        #expect(refused.contains("malformed_body"))
        // Status lines, not the words "HTTP/1.1" in a message.
        let answers = { (text: String) in
            text.components(separatedBy: "HTTP/1.1 ").dropFirst().filter { $0.prefix(3).allSatisfy(\.isNumber) && $0.count >= 3 }.count
        }
        #expect(answers(refused) == 1, "one answer, then the connection closes: \(refused)")
        // A request answered before its body is read (no key: 401) whose body cannot be read gets that one answer,
        // not an empty 400 after it.
        let unreadable = try Self.exchange(
            "POST /v1/payments HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
            port: port, untilClosed: true)
        #expect(unreadable.hasPrefix("HTTP/1.1 401"), "\(unreadable)")
        #expect(answers(unreadable) == 1, "one answer: \(unreadable)")
        #expect(try await Self.request("http://127.0.0.1:\(port)/health").status == 200)
    }

    @Test("a request that is not HTTP/1.1 gets the JSON error naming what was wrong, and nothing else of the connection breaks")
    func malformedRequests() async throws {
        let directory = TemporaryDirectory("paylog-serve")
        defer { directory.remove() }
        let store = directory.path + "/store"
        let (server, port) = try Self.start(["serve", "--store", store, "--port", "0"])
        defer { if server.isRunning { server.terminate() } }

        func expectMalformed(_ request: String, naming words: String) throws {
            let answer = try Self.exchange(request, port: port, untilClosed: true)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(300))")
            #expect(answer.lowercased().contains("content-type: application/json"), "\(answer.prefix(300))")
            let body = try #require(answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) })
            let error = try PaylogProcess.jsonObject(body)["error"] as? [String: Any]
            #expect(error?["code"] as? String == "malformed_request", "\(body)")
            #expect((error?["message"] as? String)?.contains(words) == true, "\(body)")
        }
        try expectMalformed("POST /v1/payments HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", naming: "Content-Length")
        try expectMalformed(
            "GET /v1/payments/" + String(repeating: "a", count: 90_000) + " HTTP/1.1\r\nHost: x\r\n\r\n", naming: "longer than")
        try expectMalformed("GET /health HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n", naming: "characters")
        // A good request, then a bad one on the same connection: the first answered as usual, the second refused.
        let both = try Self.exchange(
            "GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
            port: port, untilClosed: true)
        #expect(both.hasPrefix("HTTP/1.1 200"), "\(both)")
        #expect(both.components(separatedBy: "HTTP/1.1 400").count == 2 && both.contains("malformed_request"), "\(both)")
        #expect(try await Self.request("http://127.0.0.1:\(port)/health").status == 200)
    }

    @Test("an HTTP/1.0 request is answered and its connection closed, unless it asked to keep it; HTTP/1.1 keeps it")
    func http10Connections() throws {
        let directory = TemporaryDirectory("paylog-serve")
        defer { directory.remove() }
        let (server, port) = try Self.start(["serve", "--store", directory.path + "/store", "--port", "0"])
        defer { if server.isRunning { server.terminate() } }

        let plain = try Self.exchangeNotingClose("GET /health HTTP/1.0\r\nHost: x\r\n\r\n", port: port, seconds: 20)
        #expect(plain.answer.hasPrefix("HTTP/1.1 200") && plain.answer.hasSuffix(#"{"status":"ok"}"#), "\(plain.answer)")
        #expect(plain.closed, "an HTTP/1.0 connection without keep-alive ends with its answer")
        let kept = try Self.exchangeNotingClose(
            "GET /health HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\n\r\n", port: port, seconds: 2)
        #expect(kept.answer.hasPrefix("HTTP/1.1 200") && !kept.closed)
        let http11 = try Self.exchangeNotingClose("GET /health HTTP/1.1\r\nHost: x\r\n\r\n", port: port, seconds: 2)
        #expect(http11.answer.hasPrefix("HTTP/1.1 200") && !http11.closed)
    }

    /// Adds a key named `pos` with `scopes` to `store` through `paylog keys add`, checks the answer, and returns
    /// the key.
    static func addKey(store: String, scopes: String) throws -> String {
        let added = try PaylogProcess.run(["keys", "add", "--store", store, "--name", "pos", "--scopes", scopes, "--json"])
        #expect(added.status == 0, "\(added.stderr)")
        let answer = try PaylogProcess.jsonObject(added.stdout)
        #expect(answer["scopes"] as? [String] == scopes.split(separator: ",").map(String.init))
        return try #require(answer["key"] as? String)
    }

    /// Sends `request` over a new TCP connection to the server on `port` and returns the first answer read (waiting at
    /// most 20 s); empty when none came.
    ///
    /// With `untilClosed`, reads until the server closes the connection (every answer of a pipelined request).
    static func exchange(_ request: String, port: Int, untilClosed: Bool = false) throws -> String {
        try exchangeNotingClose(request, port: port, seconds: 20, untilClosed: untilClosed).answer
    }

    /// ``exchange(_:port:untilClosed:)`` reading until the server closes the connection (unless `untilClosed` is
    /// false: one read) or `seconds` pass without a byte, and saying whether it was closed.
    static func exchangeNotingClose(
        _ request: String, port: Int, seconds: Int, untilClosed: Bool = true
    ) throws -> (answer: String, closed: Bool) {
        let socket = connectedSocket(port: port, receiveTimeoutSeconds: seconds)
        defer { close(socket) }
        // MSG_NOSIGNAL: a server that closes early makes the send fail, not the test process die of SIGPIPE.
        #expect(send(socket, request, request.utf8.count, Int32(MSG_NOSIGNAL)) == request.utf8.count)
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var closed = false
        repeat {
            let received = recv(socket, &chunk, chunk.count, 0)
            closed = received == 0
            guard received > 0 else { break }
            answer += chunk.prefix(received)
        } while untilClosed
        return (String(decoding: answer, as: UTF8.self), closed)
    }

    /// A TCP socket connected to `127.0.0.1:port`, whose reads give up after `receiveTimeoutSeconds`; the caller
    /// closes it.
    static func connectedSocket(port: Int, receiveTimeoutSeconds: Int) -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(socket >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        var wait = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        return socket
    }

    /// Starts `paylog` with `arguments` (a `serve`), and returns it with the port it announced.
    static func start(_ arguments: [String]) throws -> (ChildProcess, Int) {
        let server = ChildProcess()
        server.executableURL = URL(fileURLWithPath: try PaylogProcess.binary())
        server.arguments = arguments
        let out = Pipe()
        server.standardOutput = out
        server.standardError = FileHandle.nullDevice
        try server.run()
        var announced = ""
        while !announced.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            announced += String(decoding: chunk, as: UTF8.self)
        }
        guard let port = announced.split(separator: ":").last.flatMap({ Int($0.prefix { $0.isNumber }) }) else {
            server.terminate()
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "paylog serve announced no port: \(announced)"])
        }
        return (server, port)
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
