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

    @Test("the default budget is reported, and the counter is the store's own")
    func defaultBudget() async throws {
        let harness = try ServiceHarness()
        try await harness.run { client in
            let text = try await client.send(.get, "/metrics").body
            let budget = Self.sample("paylog_mapped_memory_budget_bytes", in: text)
            #expect(budget == Double(EventStore.defaultMappedMemoryBudget))
            // The budget is the whole process's, and this test process maps other tests' stores and its own
            // code: whether it is over 96 MiB depends on them, so only the bounds are exact here.
            let reported = try #require(Self.sample("paylog_mapped_memory_releases_total", in: text))
            #expect(reported >= 0)
            #expect(reported <= Double(harness.store.mappedMemoryReleases))
        }
    }

    @Test("a store that stays under its budget counts no release")
    func underBudget() async throws {
        // 1 TiB: no test process comes near it.
        let harness = try ServiceHarness(mappedMemoryBudget: 1 << 40)
        try await harness.run { client in
            _ = try await client.send(.get, "/metrics")
            try await Task.sleep(for: .milliseconds(50))
            let text = try await client.send(.get, "/metrics").body
            #expect(Self.sample("paylog_mapped_memory_budget_bytes", in: text) == Double(1 << 40))
            #expect(Self.sample("paylog_mapped_memory_releases_total", in: text) == 0)
            #expect(harness.store.mappedMemoryReleases == 0)
            // 1 where the kernel maps one page per fault for a budgeted map (Linux 6.7+), 0 where it refused.
            let onePage = Self.sample("paylog_mapped_memory_one_page_faults", in: text)
            #expect(onePage == (harness.store.mapsOnePagePerFault ? 1 : 0))
        }
    }

    @Test("without a budget the gauge reads 0")
    func noBudget() async throws {
        let harness = try ServiceHarness(mappedMemoryBudget: nil)
        try await harness.run { client in
            let text = try await client.send(.get, "/metrics").body
            #expect(Self.sample("paylog_mapped_memory_budget_bytes", in: text) == 0)
            #expect(Self.sample("paylog_mapped_memory_releases_total", in: text) == 0)
            #expect(Self.sample("paylog_mapped_memory_one_page_faults", in: text) == 0, "no budget: fault-around kept")
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
            // Once a release could not bring the process under its target, the next waits for the process to grow
            // or for that floor to expire (MapSweep.floorLooks looks, about a second): within 3 s either way.
            var second = first
            var text = ""
            for _ in 0..<300 where second <= first {
                try await Task.sleep(for: .milliseconds(10))
                text = try await client.send(.get, "/metrics").body
                let sample = try #require(Self.sample("paylog_mapped_memory_releases_total", in: text))
                #expect(sample >= second, "the counter went down")
                second = sample
            }
            #expect(Self.sample("paylog_mapped_memory_budget_bytes", in: text) == 1)
            #expect(second > first, "no further release counted within 3 s")
            #expect(second <= Double(harness.store.mappedMemoryReleases))
        }
    }
}
