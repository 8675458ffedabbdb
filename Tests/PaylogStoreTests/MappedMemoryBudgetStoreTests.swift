import Foundation
import LMDBKit
import TestSupport
import Testing

@testable import PaylogStore

@Suite("A store's mapped-memory budget")
struct MappedMemoryBudgetStoreTests {
    @Test("a store keeps its mapped pages under 96 MiB unless opened with other options")
    func defaultBudget() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path + "/default")
        #expect(store.environment.mappedMemoryBudget == 96 << 20)
        #expect(EventStore.defaultRebuildMappedLimit == 96 << 20)
        store.close()
        let unbudgeted = try EventStore(path: dir.path + "/none", options: EnvironmentOptions())
        #expect(unbudgeted.environment.mappedMemoryBudget == nil)
        unbudgeted.close()
    }

    @Test("a budgeted store releases its mapped pages while it appends and reads")
    func releasesWhileWorking() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // One byte: the process's own code keeps it over budget, so the store's thread releases on every look.
        let store = try EventStore(path: dir.path, options: EnvironmentOptions(mappedMemoryBudget: 1))
        defer { store.close() }
        for batch in 0..<20 {
            let events = (0..<50).map { _ in StoreFixtures.event("Tick", String(repeating: "x", count: 2_000 + batch)) }
            _ = try await store.append(events, to: "stream-\(batch)")
        }
        let deadline = Date().addingTimeInterval(2)
        while store.environment.budgetReleases == 0 && Date() < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(store.environment.budgetReleases > 0)
        #expect(try store.lastPosition() == 1_000, "every append is still there")
    }
}
