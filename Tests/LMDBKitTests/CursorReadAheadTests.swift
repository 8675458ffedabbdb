import TestSupport
import LMDBKit
import Testing

@Suite("Cursor read-ahead walk")
struct CursorReadAheadTests {
    /// A store of `count` entries: big-endian 4-byte keys, values of `size(index)` bytes filled from the index.
    private static func store(count: Int, size: (Int) -> Int) throws -> (TemporaryDirectory, Environment, Database) {
        let dir = TemporaryDirectory()
        let env = try Environment(path: dir.path)
        let db = try env.openDatabase("kv")
        try env.write { txn in
            for index in 0..<count {
                try txn.put(value(index, size(index)), for: key(index), in: db)
            }
        }
        return (dir, env, db)
    }

    private static func key(_ index: Int) -> [UInt8] {
        withUnsafeBytes(of: UInt32(index).bigEndian) { Array($0) }
    }

    private static func value(_ index: Int, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: index &* 31 &+ $0) }
    }

    @Test("visits every entry in key order with its own bytes, values on overflow pages included")
    func visitsEveryEntryIntact() throws {
        // Sizes from a few bytes to several pages: LMDB keeps the large ones on overflow pages of their own.
        let size = { (index: Int) in [3, 300, 5_000, 40, 12_000][index % 5] }
        let (dir, env, db) = try Self.store(count: 400, size: size)
        defer { dir.remove() }
        let seen = try env.read { txn in
            try txn.withCursor(db) { cursor -> [Int] in
                #expect(try cursor.move(.first))
                var seen: [Int] = []
                let visited = try cursor.forEachReadingAhead { key, value in
                    let index = Int(key.loadUnaligned(as: UInt32.self).bigEndian)
                    // Checked inside the call, after the cursor has moved on to the next entry.
                    #expect(Array(value) == Self.value(index, size(index)), "entry \(index)")
                    seen.append(index)
                    return true
                }
                #expect(visited == 400)
                return seen
            }
        }
        #expect(seen == Array(0..<400))
    }

    @Test("stops after the limit, or at the entry the body refuses, and leaves the cursor on the next entry")
    func stopsAtLimitOrRefusal() throws {
        let (dir, env, db) = try Self.store(count: 50) { _ in 100 }
        defer { dir.remove() }
        try env.read { txn in
            try txn.withCursor(db) { cursor in
                #expect(try cursor.move(.atOrAfter, key: Self.key(10)))
                var first: [Int] = []
                let limited = try cursor.forEachReadingAhead(limit: 7) { key, _ in
                    first.append(Int(key.loadUnaligned(as: UInt32.self).bigEndian))
                    return true
                }
                #expect(limited == 7)
                #expect(first == Array(10..<17))
                #expect(cursor.current().key == Self.key(17))

                var second: [Int] = []
                let refused = try cursor.forEachReadingAhead { key, _ in
                    let index = Int(key.loadUnaligned(as: UInt32.self).bigEndian)
                    second.append(index)
                    return index < 20
                }
                #expect(refused == 4)
                #expect(second == [17, 18, 19, 20])
                #expect(cursor.current().key == Self.key(21))

                #expect(try cursor.forEachReadingAhead(limit: 0) { _, _ in true } == 0)
                #expect(cursor.current().key == Self.key(21))
            }
        }
    }

    @Test("an error from the body stops the walk and reaches the caller")
    func bodyErrorPropagates() throws {
        struct Stop: Error, Equatable { let index: Int }
        let (dir, env, db) = try Self.store(count: 20) { _ in 10 }
        defer { dir.remove() }
        var calls = 0
        #expect(throws: Stop(index: 5)) {
            try env.read { txn in
                try txn.withCursor(db) { cursor in
                    _ = try cursor.move(.first)
                    _ = try cursor.forEachReadingAhead { key, _ in
                        calls += 1
                        let index = Int(key.loadUnaligned(as: UInt32.self).bigEndian)
                        if index == 5 { throw Stop(index: index) }
                        return true
                    }
                }
            }
        }
        #expect(calls == 6)
    }
}
