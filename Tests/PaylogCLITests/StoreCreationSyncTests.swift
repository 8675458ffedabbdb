import Foundation
import TestSupport
import Testing

/// Docs/storage.md, *Durability*: a new store's directory entries are flushed before anything is acknowledged in it.
/// Without it, on file systems that do not order a directory's entries with its files' data (XFS, btrfs), a machine
/// crash right after the first acknowledged append could lose `data.mdb`'s name, or the store directory's, and with
/// it every event. Watched from outside with `strace` (installed by `Tools/ensure-deps.sh --tests`): what the real
/// process asks of the kernel, in order.
@Suite("a new store's directories are flushed before its first commit")
struct StoreCreationSyncTests {
    /// What the traced process did that matters here, in order.
    enum Step: Equatable {
        /// `fsync` of a directory opened at this path.
        case directorySync(String)
        /// `fsync` or `fdatasync` of the store's `data.mdb`: a commit.
        case commit
    }

    /// Runs `paylog arguments` under `strace -f` and returns its directory syncs and commits in order.
    static func traced(_ arguments: [String], in dir: TemporaryDirectory) throws -> (PaylogProcess.Result, [Step]) {
        let strace = try #require(
            ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "strace is missing: Tools/ensure-deps.sh --tests installs it")
        let trace = dir.path + "/trace-\(UUID().uuidString)"
        let result = try PaylogProcess.run(
            ["-f", "-qq", "-e", "trace=openat,fsync,fdatasync", "-o", trace, try PaylogProcess.binary()] + arguments,
            executable: strace)
        return (result, try steps(in: String(contentsOfFile: trace, encoding: .utf8)))
    }

    /// Reads strace's lines: each thread's `<unfinished ...>` call joined with its `<... resumed>` rest, each
    /// descriptor followed from the `openat` that returned it.
    static func steps(in trace: String) throws -> [Step] {
        var pending: [String: String] = [:]
        var opened: [Int: (path: String, directory: Bool)] = [:]
        var steps: [Step] = []
        for raw in trace.split(separator: "\n") {
            let pid = String(raw.prefix { $0 != " " })
            var call = raw.drop { $0 != " " }.drop { $0 == " " }
            if call.hasSuffix("<unfinished ...>") {
                pending[pid] = String(call.dropLast("<unfinished ...>".count))
                continue
            }
            if call.hasPrefix("<..."), let start = pending.removeValue(forKey: pid),
                let close = call.range(of: "resumed>")
            {
                call = Substring(start + call[close.upperBound...])
            }
            guard let equals = call.range(of: " = ", options: .backwards),
                let returned = Int(call[equals.upperBound...].prefix { $0 != " " })
            else { continue }
            if call.hasPrefix("openat("), returned >= 0 {
                let quoted = call.split(separator: "\"", omittingEmptySubsequences: false)
                guard quoted.count >= 3 else { continue }
                opened[returned] = (String(quoted[1]), call.contains("O_DIRECTORY"))
            } else if call.hasPrefix("fsync(") || call.hasPrefix("fdatasync("), returned == 0,
                let descriptor = Int(call.drop { $0 != "(" }.dropFirst().prefix(while: \.isNumber)),
                let file = opened[descriptor]
            {
                if file.directory {
                    steps.append(.directorySync(file.path))
                } else if file.path.hasSuffix("/data.mdb") {
                    steps.append(.commit)
                }
            }
        }
        return steps
    }

    static let request = [
        "request", "--payment", "pay-1", "--provider", "sumup", "--amount", "12.50", "--currency", "EUR",
        "--callback", "myshop://done", "--client-id", "key", "--at", "2026-11-21T09:00:00Z",
    ]

    @Test("a first request into a new store flushes the store's entry in its parent and its own entries first")
    func newStore() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/store"
        let (result, steps) = try Self.traced(Self.request + ["--store", store], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let firstCommit = try #require(steps.firstIndex(of: .commit), "no commit traced: \(steps)")
        let before = steps[..<firstCommit]
        // `store` is named in the temporary directory, and `data.mdb` in `store`.
        for directory in [dir.path, store] {
            #expect(before.contains(.directorySync(directory)), "\(directory) not flushed before the first commit: \(steps)")
        }
    }

    @Test("a backup into new nested directories flushes each new directory's entry in its parent")
    func backupDestination() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path + "/store"]
        #expect(try PaylogProcess.run(Self.request + store).status == 0)
        let (result, steps) = try Self.traced(["backup", dir.path + "/copies/monday"] + store, in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        // `copies` is named in the temporary directory, `monday` in `copies`, and the copy's `data.mdb` in `monday`.
        for directory in [dir.path, dir.path + "/copies", dir.path + "/copies/monday"] {
            #expect(steps.contains(.directorySync(directory)), "\(directory) not flushed: \(steps)")
        }
    }

    @Test("the trace reader joins calls strace split between threads, and follows each descriptor")
    func traceReader() throws {
        let trace = """
            7 openat(AT_FDCWD, "/s", O_RDONLY|O_CLOEXEC|O_DIRECTORY <unfinished ...>
            8 openat(AT_FDCWD, "/s/data.mdb", O_RDWR|O_CREAT, 0600) = 5
            7 <... openat resumed>) = 6
            7 fsync(6 <unfinished ...>
            8 fdatasync(5)                      = 0
            7 <... fsync resumed>)              = 0
            7 fsync(4)                          = 0
            """
        #expect(try Self.steps(in: trace) == [.commit, .directorySync("/s")])
    }

    @Test("opening a store that exists flushes no directory: the cost is paid once, at creation")
    func existingStore() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.path + "/store"
        #expect(try PaylogProcess.run(Self.request + ["--store", store]).status == 0)
        let again = ["switch", "pay-1", "--at", "2026-11-21T09:00:05Z", "--store", store]
        let (result, steps) = try Self.traced(again, in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(steps.contains(.commit), "the switch committed nothing: \(steps)")
        #expect(!steps.contains { if case .directorySync = $0 { true } else { false } }, "\(steps)")
    }
}
