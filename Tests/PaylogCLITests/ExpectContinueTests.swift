import Foundation
import Glibc
import Testing
import TestSupport

/// A client that asks `Expect: 100-continue` (curl, for every body over 1 MiB) is told to go on at once.
@Suite("Expect: 100-continue")
struct ExpectContinueTests {
    @Test("a request head asking 100-continue gets 100 Continue before its body is sent, then the usual answer")
    func continues() async throws {
        let directory = TemporaryDirectory("paylog-serve")
        defer { directory.remove() }
        let store = directory.path + "/store"
        let key = try ServeProcessTests.addKey(store: store, scopes: "ingest,read")
        let (server, port) = try ServeProcessTests.start(["serve", "--store", store, "--port", "0"])
        defer { if server.isRunning { server.terminate() } }

        // Reads give up after 5 s, ample for any machine to answer a head: without the interim answer nothing arrives
        // before the body is sent, and the first read times out.
        let socket = ServeProcessTests.connectedSocket(port: port, receiveTimeoutSeconds: 5)
        defer { close(socket) }
        func receive() -> String {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let received = recv(socket, &chunk, chunk.count, 0)
            return received > 0 ? String(decoding: chunk.prefix(received), as: UTF8.self) : ""
        }

        let body = #"{"kind":"fail","payment":"nobody","at":"2026-11-22T09:00:00Z","reason":"r"}"# + "\n"
        let head = "POST /v1/observations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(key)\r\n"
            + "Content-Type: application/x-ndjson\r\nContent-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n"
        #expect(send(socket, head, head.utf8.count, Int32(MSG_NOSIGNAL)) == head.utf8.count)
        let interim = receive()
        #expect(interim.hasPrefix("HTTP/1.1 100 Continue\r\n"), "before the body: \(interim)")

        #expect(send(socket, body, body.utf8.count, Int32(MSG_NOSIGNAL)) == body.utf8.count)
        var answer = interim.hasPrefix("HTTP/1.1 100") ? "" : interim
        while !answer.contains("\"rejected\"") {
            let more = receive()
            if more.isEmpty { break }
            answer += more
        }
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
        #expect(answer.contains("\"lines\":1"), "\(answer)")
    }
}
