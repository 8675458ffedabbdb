import Foundation
@testable import LMDBKit
import TestSupport
import Testing

@Suite("One budget thread for the whole process")
struct MappedMemoryGovernorTests {
    /// The process's threads named `name` now (from `/proc/self/task/*/comm`).
    static func threads(named name: String) throws -> Int {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
        return tasks.filter { task in
            // A thread that ended between the listing and the read has no comm left to read.
            guard let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8) else { return false }
            return comm.trimmingCharacters(in: .newlines) == name
        }.count
    }

    @Test("sixteen budgeted environments are served by one named thread, which releases each of their maps")
    func oneThreadForMany() throws {
        let dirs = (0..<16).map { _ in TemporaryDirectory() }
        defer { dirs.forEach { $0.remove() } }
        // A budget of one byte: the process's file-backed memory (its own code, at least) is always over it, so
        // every look releases something of each map.
        let environments = try dirs.map { try Environment(path: $0.path, options: EnvironmentOptions(mappedMemoryBudget: 1)) }
        defer { environments.forEach { $0.close() } }
        let name = MappedMemoryGovernor.threadName
        // A thread that found no environment at its last look may still be ending as a new one starts.
        #expect(try MappedMemoryBudgetTests.eventually(within: 2) { try Self.threads(named: name) == 1 })
        for _ in 0..<10 {
            #expect(try Self.threads(named: name) == 1)
            usleep(5_000)
        }
        for (index, environment) in environments.enumerated() {
            #expect(MappedMemoryBudgetTests.eventually(within: 2) { environment.budgetReleases > 0 }, "environment \(index)")
        }
    }

    @Test("an environment without a budget joins no thread's looks")
    func noBudgetNoMembership() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let environment = try Environment(path: dir.path)
        defer { environment.close() }
        usleep(20_000)
        #expect(environment.budgetReleases == 0)
        #expect(environment.mappedMemoryBudget == nil)
    }
}
