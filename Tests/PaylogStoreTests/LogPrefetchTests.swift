import Foundation
@testable import PaylogStore
import TestSupport
import Testing

/// The sweep that reads a log file into the page cache before a rebuild reads it through the map: it must cover
/// the whole file, and must not start where the file would not fit in half of the available memory.
@Suite("Log prefetch")
struct LogPrefetchTests {
    /// Writes a file of `bytes` bytes in `dir` and returns its path.
    static func file(_ dir: TemporaryDirectory, bytes: Int) throws -> String {
        let path = dir.path + "/data.mdb"
        try Data(repeating: 0x5A, count: bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("the sweep advises the whole file, in steps, up to its last byte")
    func coversTheFile() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let bytes = 3 * LogPrefetch.step + 12_345
        let path = try Self.file(dir, bytes: bytes)
        let prefetch = try #require(LogPrefetch.start(path: path, availableMemory: 1 << 40))
        #expect(prefetch.fileBytes == bytes)
        let deadline = Date().addingTimeInterval(30)
        while prefetch.advised < bytes, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(prefetch.advised == bytes)
    }

    @Test("a file larger than half of the available memory is not swept")
    func declinesWhenTooLarge() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let bytes = 1 << 20
        let path = try Self.file(dir, bytes: bytes)
        #expect(LogPrefetch.start(path: path, availableMemory: 2 * bytes - 1) == nil)
        #expect(LogPrefetch.start(path: path, availableMemory: nil) == nil, "unknown memory: no sweep")
        let started = LogPrefetch.start(path: path, availableMemory: 2 * bytes)
        #expect(started != nil)
        started?.stop()
    }

    @Test("a missing file is not swept")
    func missingFile() {
        #expect(LogPrefetch.start(path: "/nonexistent/paylog/data.mdb", availableMemory: 1 << 40) == nil)
    }

    @Test("the available memory is read from /proc/meminfo on Linux")
    func availableMemory() throws {
        let available = try #require(LogPrefetch.availableMemory())
        #expect(available > 0)
    }
}
