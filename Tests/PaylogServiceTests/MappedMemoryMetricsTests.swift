import Foundation
import PaylogStore
import Testing

@Suite("HTTP: the store's mapped-memory budget in /metrics")
struct MappedMemoryMetricsTests {
    /// The value of the unlabelled sample `name` in a Prometheus text exposition; nil when it is missing.
    static func sample(_ name: String, in exposition: String) -> Double? {
        for line in exposition.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1))
        }
        return nil
    }

    @Test("the default budget is reported, and a store that stays under it counts no release")
    func defaultBudget() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let text = try await client.send(.get, "/metrics").body
            #expect(Self.sample("paylog_mapped_memory_budget_bytes", in: text) == Double(96 << 20))
            #expect(Self.sample("paylog_mapped_memory_releases_total", in: text) == 0)
        }
    }

    @Test("without a budget the gauge reads 0")
    func noBudget() async throws {
        let harness = try ServiceHarness(mappedMemoryBudget: nil)
        try await harness.run { client in
            let text = try await client.send(.get, "/metrics").body
            #expect(Self.sample("paylog_mapped_memory_budget_bytes", in: text) == 0)
            #expect(Self.sample("paylog_mapped_memory_releases_total", in: text) == 0)
        }
    }

    @Test("a store over its budget counts its releases, and the counter only grows")
    func releasesCounted() async throws {
        // One byte: the process's file-backed memory (its own code, at least) is always over it.
        let harness = try ServiceHarness(mappedMemoryBudget: 1)
        try await harness.run { client in
            var first = 0.0
            for _ in 0..<200 where first == 0 {
                try await Task.sleep(for: .milliseconds(10))
                let text = try await client.send(.get, "/metrics").body
                first = Self.sample("paylog_mapped_memory_releases_total", in: text) ?? 0
            }
            #expect(first > 0, "no release counted within 2 s")
            try await Task.sleep(for: .milliseconds(50))
            let text = try await client.send(.get, "/metrics").body
            #expect(Self.sample("paylog_mapped_memory_budget_bytes", in: text) == 1)
            let second = try #require(Self.sample("paylog_mapped_memory_releases_total", in: text))
            #expect(second > first)
            #expect(second <= Double(harness.store.mappedMemoryReleases))
        }
    }
}
