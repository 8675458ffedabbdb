import Foundation
import Testing

@testable import PaylogBench

/// The figures the bench's memory sampler reads agree with the kernel's own report of them.
@Suite("Process memory")
struct ProcessMemoryTests {
    @Test("the anonymous resident set read from statm is the RssAnon of /proc/self/status")
    func anonymousResidentMatchesStatus() throws {
        // 64 MiB touched, so that the figure is far from zero and a wrong field of statm cannot pass.
        let block = UnsafeMutableRawPointer.allocate(byteCount: 64 << 20, alignment: 4096)
        defer { block.deallocate() }
        block.initializeMemory(as: UInt8.self, repeating: 1, count: 64 << 20)
        let fromStatm = try #require(ProcessMemory.anonymousResidentBytes())
        let fromStatus = try #require(ProcessMemory.statusField("RssAnon"))
        #expect(fromStatm >= 64 << 20)
        // Read one after the other: other threads may touch a few pages in between.
        #expect(abs(fromStatm - fromStatus) < 4 << 20)
        let resident = try #require(ProcessMemory.residentBytes())
        #expect(fromStatm < resident)
    }
}
