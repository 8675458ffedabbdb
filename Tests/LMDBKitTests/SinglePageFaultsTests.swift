import Foundation
@testable import LMDBKit
import TestSupport
import Testing

@Suite("One page per fault in a budgeted map")
struct SinglePageFaultsTests {
    /// The `VmFlags:` of the one mapping holding `address`: `uw` marks a range registered with a userfaultfd for
    /// write protection, which is how one-page faults are asked for; `nh`, one marked MADV_NOHUGEPAGE.
    static func vmFlags(ofMappingAt address: UInt) throws -> [Substring] {
        try MappedPagesTests.smapsFields("VmFlags:", ofMappingAt: address)
    }

    /// The key of value `index` in ``MappedPagesTests/filled(_:values:)``.
    static func key(_ index: Int) -> [UInt8] { withUnsafeBytes(of: UInt64(index).bigEndian) { Array($0) } }

    /// Where in the map the value of `index` lies.
    static func address(of index: Int, in env: Environment, _ db: Database) throws -> UInt {
        try env.read { txn in
            try Self.key(index).withUnsafeBytes { key in
                try txn.withValue(forKeyBytes: key, in: db) { UInt(bitPattern: $0?.baseAddress) }
            }
        }
    }

    /// Releases the whole map, reads every `stride`-th value, and returns how many bytes the map's resident set grew
    /// by, with the sum of the bytes read.
    static func growthOfSparseRead(
        _ env: Environment, _ db: Database, values: Int, stride: Int
    ) throws -> (growth: Int, sum: Int) {
        let anchor = try address(of: 0, in: env, db)
        env.releaseMappedPages()
        let before = try MappedPagesTests.residentBytes(ofMappingAt: anchor)
        let sum = try env.read { txn in
            var sum = 0
            for index in Swift.stride(from: 0, to: values, by: stride) {
                let value = try #require(try txn.value(for: Self.key(index), in: db))
                sum += value.reduce(0) { $0 + Int($1) }
            }
            return sum
        }
        let after = try MappedPagesTests.residentBytes(ofMappingAt: anchor)
        return (after - before, sum)
    }

    @Test("with a budget, reading a value maps its own pages and not the cached pages around them")
    func budgetedMapFaultsOnePage() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let values = 12_000
        let stride = 100
        // 48 MB of values, each on a page of its own, all in the page cache since they were just written.
        let (filling, db) = try MappedPagesTests.filled(dir.path, values: values)
        let plain = try Self.growthOfSparseRead(filling, db, values: values, stride: stride)
        #expect(!filling.mapsOnePagePerFault, "a map without a budget keeps the kernel's fault-around")
        #expect(filling.onePagePerFaultRefusal == nil, "nothing was asked of the kernel, so nothing was refused")
        #expect(try !Self.vmFlags(ofMappingAt: Self.address(of: 0, in: filling, db)).contains("uw"))
        filling.close()

        // A budget far above anything this process maps: the budget thread never releases during the reads.
        let env = try Environment(path: dir.path, options: EnvironmentOptions(mappedMemoryBudget: 1 << 40))
        defer { env.close() }
        let reopened = try env.openDatabase("values")
        let budgeted = try Self.growthOfSparseRead(env, reopened, values: values, stride: stride)
        #expect(budgeted.sum == plain.sum, "the same bytes are read either way")
        let flags = try Self.vmFlags(ofMappingAt: Self.address(of: 0, in: env, reopened))
        #expect(flags.contains("uw") == env.mapsOnePagePerFault, "the kernel's view of the map: \(flags)")
        if FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage") {
            // Where the kernel has huge pages, a 2 MiB page-cache folio would otherwise be mapped whole.
            #expect(flags.contains("nh") == env.mapsOnePagePerFault, "the kernel's view of the map: \(flags)")
        }
        if env.mapsOnePagePerFault {
            // 120 values read: each its overflow page and its leaf (about 60 leaves), plus the root: about 181
            // pages (0.7 MiB). With fault-around each of those faults maps up to 16 cached pages.
            let reads = values / stride
            #expect(budgeted.growth <= 3 * reads * 4096, "\(budgeted.growth) bytes mapped for \(reads) values read")
            #expect(budgeted.growth > 0)
            #expect(plain.growth > budgeted.growth, "without a budget: \(plain.growth) bytes")
        } else {
            // The kernel refused (older than Linux 6.7, or userfaultfd disabled): it must have said why.
            #expect(env.onePagePerFaultRefusal != nil)
        }
    }

    @Test("a map grown to a new size is registered again, and reads through it see what was written")
    func grownMapStaysRegistered() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let env = try Environment(
            path: dir.path, options: EnvironmentOptions(initialMapSize: 1 << 20, mappedMemoryBudget: 1 << 40))
        defer { env.close() }
        let supported = env.mapsOnePagePerFault
        let db = try env.openDatabase("values")
        // 8 MB into a 1 MiB map: LMDB replaces its mapping at each growth.
        try env.write { txn in
            for index in 0..<2_000 {
                try txn.put([UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 4_000), for: Self.key(index), in: db)
            }
        }
        #expect(env.mapGrowths > 0)
        #expect(env.mapsOnePagePerFault == supported, "growth kept the registration's state")
        let flags = try Self.vmFlags(ofMappingAt: Self.address(of: 1_999, in: env, db))
        #expect(flags.contains("uw") == supported, "the new mapping's flags: \(flags)")
        let last = try env.read { txn in try txn.value(for: Self.key(1_999), in: db) }
        #expect(last == [UInt8](repeating: UInt8(truncatingIfNeeded: 1_999), count: 4_000))
    }

    /// Maps `bytes` bytes of a new file in `directory`, shared and read-only, from a descriptor opened with `flags`;
    /// returns the mapping's range and a closure that unmaps it and closes the file.
    static func mappedFile(
        in directory: String, bytes: Int, flags: Int32
    ) throws -> (range: (start: UInt, end: UInt), unmap: () -> Void) {
        let path = directory + "/mapped"
        try Data(repeating: 0x5A, count: bytes).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, flags)
        try #require(descriptor >= 0)
        let address = mmap(nil, bytes, PROT_READ, MAP_SHARED, descriptor, 0)
        try #require(address != MAP_FAILED)
        let start = UInt(bitPattern: address)
        return ((start, start + UInt(bytes)), { _ = munmap(address, bytes); _ = close(descriptor) })
    }

    @Test("a mapping the kernel will not register keeps fault-around, and the refusal's errno is kept")
    func refusedMappingIsReported() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // A shared mapping of a file opened read-only may never be written: the kernel refuses to register it for
        // write protection (EPERM), and a kernel without the feature refuses earlier (EINVAL, ENOSYS).
        let mapped = try Self.mappedFile(in: dir.path, bytes: 1 << 20, flags: O_RDONLY)
        defer { mapped.unmap() }
        // (`SinglePageFaults` is not copyable, so each figure is taken out before it is checked.)
        var faults = SinglePageFaults()
        let registered = faults.register([mapped.range])
        let active = faults.isActive
        let refusal = faults.lastError
        #expect(!registered)
        #expect(!active)
        #expect(refusal != 0)
        #expect(try !MappedPagesTests.smapsFields("VmFlags:", ofMappingAt: mapped.range.start).contains("uw"))
        let nothing = faults.register([])
        #expect(!nothing, "no range: nothing to register")
    }

    @Test("a closed registration is inactive, and registering again makes a new descriptor")
    func closeAndRegisterAgain() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let mapped = try Self.mappedFile(in: dir.path, bytes: 1 << 20, flags: O_RDWR)
        defer { mapped.unmap() }
        var faults = SinglePageFaults()
        let supported = faults.register([mapped.range])
        let active = faults.isActive
        let refused = faults.lastError != 0
        #expect(active == supported)
        #expect(supported != refused, "either registered or refused with a reason")
        faults.close()
        let activeAfterClose = faults.isActive
        #expect(!activeAfterClose)
        let again = faults.register([mapped.range])
        #expect(again == supported, "a new descriptor serves as the first did")
        let flags = try MappedPagesTests.smapsFields("VmFlags:", ofMappingAt: mapped.range.start)
        #expect(flags.contains("uw") == supported, "\(flags)")
    }
}
