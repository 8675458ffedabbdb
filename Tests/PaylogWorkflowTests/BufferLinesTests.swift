import Foundation
import Testing
import TestSupport

@testable import PaylogWorkflow

/// The in-memory reader behind the HTTP JSON Lines endpoints reads a body as `paylog ingest` reads a file.
@Suite("Buffer lines")
struct BufferLinesTests {
    /// Each line and its problem, as `LineReader` reads `bytes` from a file.
    static func fromFile(_ bytes: [UInt8]) throws -> [(String, String?)] {
        let directory = TemporaryDirectory("paylog-buffer-lines")
        defer { directory.remove() }
        let path = directory.path + "/input.jsonl"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var reader = try LineReader(path: path)
        var lines: [(String, String?)] = []
        while let line = reader.next() { lines.append((line, reader.problemWithLastLine)) }
        return lines
    }

    /// Each line and its problem, as `BufferLines` reads `bytes`, through a `for` loop (which copies the sequence).
    static func fromBuffer(_ bytes: [UInt8]) -> [(String, String?)] {
        let lines = BufferLines(bytes)
        var read: [(String, String?)] = []
        for line in lines { read.append((line, lines.problemWithLastLine)) }
        return read
    }

    @Test("every input gives the lines and problems LineReader gives for the same bytes in a file", arguments: [
        Array("{\"a\":1}\n{\"b\":2}\n".utf8), Array("{\"a\":1}\n{\"b\":2}".utf8), Array("one\n\n\nfour\n".utf8), [],
        Array("\n".utf8), Array("x\r\n y \n\u{00A0}z\u{00A0}\n".utf8),
        Array("\u{FEFF}{\"a\":1}\n\u{FEFF}x\n".utf8), Array("\u{FEFF}".utf8), Array("\u{FEFF}\n".utf8),
        Array("ok\n".utf8) + [0x61, 0x62, 0xC3, 0x28] + Array("\nfine\n".utf8), [0xFF], [0xEF, 0xBB, 0xBF, 0xFE, 0x0A, 0x41],
    ])
    func sameAsFile(_ bytes: [UInt8]) throws {
        let file = try Self.fromFile(bytes)
        let buffer = Self.fromBuffer(bytes)
        #expect(buffer.map(\.0) == file.map(\.0), "\(bytes)")
        #expect(buffer.map(\.1) == file.map(\.1), "\(bytes)")
    }

    @Test("a line that is not UTF-8 says where, and the next good line clears it")
    func notUTF8() {
        var lines = BufferLines(Array("ok\n".utf8) + [0x61, 0x62, 0xC3, 0x28] + Array("\nfine".utf8))
        #expect(lines.next() == "ok" && lines.problemWithLastLine == nil)
        #expect(lines.next() != nil)
        #expect(lines.problemWithLastLine?.hasPrefix("not valid UTF-8 (byte 0xC3 at column 3)") == true)
        #expect(lines.next() == "fine" && lines.problemWithLastLine == nil)
        #expect(lines.next() == nil)
        #expect(lines.next() == nil)
    }

    @Test("read once: a copy shares the position, so a second loop gets no lines")
    func readOnce() {
        let lines = BufferLines(Array("a\nb\n".utf8))
        #expect(Array(lines) == ["a", "b"])
        #expect(Array(lines).isEmpty)
    }
}
