import Foundation
@testable import LMDBKit
import Synchronization
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
        #expect(environment.budgetMembership == nil)
        #expect(environment.budgetReleases == 0)
        let budgeted = try Environment(path: dir.path + "/budgeted", options: EnvironmentOptions(mappedMemoryBudget: 1 << 30))
        defer { budgeted.close() }
        #expect(budgeted.budgetMembership != nil)
    }

    @Test("an environment over a floor it could not sweep under releases again only once the process grows a quarter of its budget past it")
    func floorHoldsThroughTheEnvironment() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // A governor of this test's own, without a thread: it looks only when told, with the figure it is given.
        let governor = MappedMemoryGovernor(startsThreads: false)
        let budget = 4 << 20
        let environment = try Environment(
            path: dir.path, options: EnvironmentOptions(mappedMemoryBudget: budget), governor: governor)
        defer { environment.close() }
        #expect(environment.mapSweepFloor == nil)
        // Over the budget: the sweep goes round the whole map, and the process (its own code alone is more than
        // 3 MiB of file-backed memory) stays over the target, so what is left becomes the floor.
        governor.look(resident: Int.max)
        #expect(environment.budgetReleases == 1)
        let floor = try #require(environment.mapSweepFloor)
        #expect(floor > budget / 4 * 3)
        // Up to a quarter of the budget past the floor: nothing released, however far over the budget.
        for _ in 0..<10 { governor.look(resident: floor + budget / 4) }
        #expect(environment.budgetReleases == 1)
        // One byte more: released again.
        governor.look(resident: floor + budget / 4 + 1)
        #expect(environment.budgetReleases == 2)
    }

    @Test("the thread ends at the first look without a member, and a new membership starts another")
    func threadEndsAndRestarts() throws {
        // Named apart from the process's thread, which another test counts.
        let governor = MappedMemoryGovernor(name: "paylog-test-gov")
        let looks = Mutex(0)
        let first = try #require(governor.register { _ in
            looks.withLock { $0 += 1 }
            return false
        })
        #expect(governor.isThreadRunning)
        #expect(MappedMemoryBudgetTests.eventually(within: 2) { looks.withLock { $0 } > 0 }, "the thread never looked")
        first.stop()
        #expect(MappedMemoryBudgetTests.eventually(within: 2) { !governor.isThreadRunning }, "the thread did not end")
        let before = looks.withLock { $0 }
        usleep(20_000)
        #expect(looks.withLock { $0 } == before, "a stopped membership was still looked at")
        let restarted = Mutex(0)
        let second = try #require(governor.register { _ in
            restarted.withLock { $0 += 1 }
            return true
        })
        defer { second.stop() }
        #expect(governor.isThreadRunning)
        #expect(MappedMemoryBudgetTests.eventually(within: 2) { second.releaseCount > 0 }, "the new thread never looked")
        // Each counted release was a call of the new membership's closure.
        let released = second.releaseCount
        #expect(restarted.withLock { $0 } >= released)
    }
}
