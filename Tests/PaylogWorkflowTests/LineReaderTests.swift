import Foundation
import Testing
import TestSupport

@testable import PaylogWorkflow

/// The file reader behind `paylog ingest`, `reconcile` and `import-log`.
@Suite("Line reader")
struct LineReaderTests {
    /// Writes `text` to a file in a fresh directory and reads it back line by line.
    static func lines(of text: String) throws -> [String] {
        let directory = TemporaryDirectory("paylog-lines")
        defer { directory.remove() }
        let path = directory.path + "/input.jsonl"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return Array(try LineReader(path: path))
    }

    @Test("lines come without their line feed, the last one with or without it")
    func withoutLineFeeds() throws {
        #expect(try Self.lines(of: "{\"a\":1}\n{\"b\":2}\n") == ["{\"a\":1}", "{\"b\":2}"])
        #expect(try Self.lines(of: "{\"a\":1}\n{\"b\":2}") == ["{\"a\":1}", "{\"b\":2}"])
        #expect(try Self.lines(of: "one\n\n\nfour\n") == ["one", "", "", "four"])
        #expect(try Self.lines(of: "") == [])
    }

    @Test("a carriage return and other bytes stay in the line; only the line feed goes")
    func carriageReturnKept() throws {
        #expect(try Self.lines(of: "x\r\n y \n\u{00A0}z\u{00A0}\n") == ["x\r", " y ", "\u{00A0}z\u{00A0}"])
    }

    @Test("a byte order mark opening the input is dropped; one inside a later line is kept")
    func byteOrderMark() throws {
        #expect(try Self.lines(of: "\u{FEFF}{\"a\":1}\n\u{FEFF}x\n") == ["{\"a\":1}", "\u{FEFF}x"])
        #expect(try Self.lines(of: "\u{FEFF}") == [""])
    }

    @Test("lines longer than any earlier one are read whole (the buffer grows and is reused)")
    func longLines() throws {
        let long = String(repeating: "é", count: 70_000)
        let short = "s"
        #expect(try Self.lines(of: [short, long, short, long + long].joined(separator: "\n")) == [short, long, short, long + long])
    }

    @Test("a file that does not exist is a clear error naming it")
    func missingFile() {
        #expect {
            _ = try LineReader(path: "/nonexistent/paylog/input.jsonl")
        } throws: { error in
            guard case WorkflowError.unreadable(let message) = error else { return false }
            return message.contains("/nonexistent/paylog/input.jsonl")
        }
    }

    @Test("a read past the end stays at the end")
    func pastTheEnd() throws {
        let directory = TemporaryDirectory("paylog-lines")
        defer { directory.remove() }
        let path = directory.path + "/input.jsonl"
        try Data("only\n".utf8).write(to: URL(fileURLWithPath: path))
        var reader = try LineReader(path: path)
        #expect(reader.next() == "only")
        #expect(reader.next() == nil)
        #expect(reader.next() == nil)
    }

    @Test("a line that is not UTF-8 says where, and the next good line clears it; a directory is refused")
    func notUTF8() throws {
        let directory = TemporaryDirectory("paylog-lines")
        defer { directory.remove() }
        let path = directory.path + "/input.jsonl"
        try Data(Array("ok\n".utf8) + [0x61, 0x62, 0xC3, 0x28] + Array("\nfine\n".utf8)).write(to: URL(fileURLWithPath: path))
        var reader = try LineReader(path: path)
        #expect(reader.next() == "ok")
        #expect(reader.problemWithLastLine == nil)
        #expect(reader.next() != nil)
        #expect(reader.problemWithLastLine?.hasPrefix("not valid UTF-8 (byte 0xC3 at column 3)") == true)
        #expect(reader.next() == "fine")
        #expect(reader.problemWithLastLine == nil)
        #expect(reader.next() == nil)
        #expect(reader.readError == nil)
        #expect(throws: WorkflowError.self) { try LineReader(path: directory.path) }
    }
}
