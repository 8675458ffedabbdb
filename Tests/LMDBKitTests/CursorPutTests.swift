import TestSupport
import LMDBKit
import Testing

@Suite("Cursor put")
struct CursorPutTests {
    private static func key(_ index: Int) -> [UInt8] {
        withUnsafeBytes(of: UInt32(index).bigEndian) { Array($0) }
    }

    private static func value(_ index: Int, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: index &* 7 &+ $0) }
    }

    /// A new environment in a temporary directory with one empty database.
    private static func emptyDatabase() throws -> (TemporaryDirectory, Environment, Database) {
        let dir = TemporaryDirectory()
        let env = try Environment(path: dir.path)
        return (dir, env, try env.openDatabase("kv"))
    }

    /// Every entry of `db` as (key index, value), in key order.
    private static func entries(_ env: Environment, _ db: Database) throws -> [(Int, [UInt8])] {
        try env.read { txn in
            try txn.withCursor(db) { cursor in
                var all: [(Int, [UInt8])] = []
                var found = try cursor.move(.first)
                while found {
                    let (key, value) = cursor.current()
                    all.append((Int(key.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self).bigEndian }), value))
                    found = try cursor.move(.next)
                }
                return all
            }
        }
    }

    @Test("appends many keys in order through one cursor, across page splits and overflow values")
    func appendsInOrder() throws {
        let (dir, env, db) = try Self.emptyDatabase()
        defer { dir.remove() }
        // Enough entries to split leaves and branches many times; some values need overflow pages.
        let size = { (index: Int) in [40, 120, 6_000, 8][index % 4] }
        let count = 5_000
        try env.write { txn in
            try txn.withCursor(db) { cursor in
                for index in 0..<count {
                    try Self.key(index).withUnsafeBytes { key in
                        try Self.value(index, size(index)).withUnsafeBytes { value in
                            try cursor.put(bytes: value, forKeyBytes: key, append: true)
                        }
                    }
                }
            }
        }
        let all = try Self.entries(env, db)
        #expect(all.count == count)
        #expect(all.map(\.0) == Array(0..<count))
        #expect(all.allSatisfy { $0.1 == Self.value($0.0, size($0.0)) })
    }

    /// Appends entry `index` (30 bytes of value) through `cursor`; returns the error LMDB gave, if any.
    private static func append(_ index: Int, _ cursor: borrowing Cursor) -> LMDBError? {
        let key = Self.key(index)
        let value = Self.value(index, 30)
        do {
            try key.withUnsafeBytes { key in
                try value.withUnsafeBytes { try cursor.put(bytes: $0, forKeyBytes: key, append: true) }
            }
            return nil
        } catch {
            return error as? LMDBError
        }
    }

    @Test("an append out of order fails with MDB_KEYEXIST and leaves the transaction usable")
    func refusesOutOfOrder() throws {
        let (dir, env, db) = try Self.emptyDatabase()
        defer { dir.remove() }
        let errors = try env.write { txn in
            try txn.withCursor(db) { cursor in
                [10, 20, 15, 20, 30].map { Self.append($0, cursor) }
            }
        }
        #expect(errors.map { $0 == nil } == [true, true, false, false, true])
        #expect(errors.compactMap { $0?.isKeyExists } == [true, true])
        #expect(try Self.entries(env, db).map(\.0) == [10, 20, 30])
    }

    @Test("without append it replaces a value anywhere; afterwards the cursor shows no entry until it moves")
    func replacesAnywhere() throws {
        let (dir, env, db) = try Self.emptyDatabase()
        defer { dir.remove() }
        try env.write { txn in
            for index in [1, 2, 3] { try txn.put(Self.value(index, 10), for: Self.key(index), in: db) }
        }
        try env.write { txn in
            try txn.withCursor(db) { cursor in
                #expect(try cursor.move(.exact, key: Self.key(3)))
                try Self.key(2).withUnsafeBytes { key in
                    try ([9, 9, 9] as [UInt8]).withUnsafeBytes { try cursor.put(bytes: $0, forKeyBytes: key) }
                }
                // The views of entry 3 taken by the move are not kept across the put.
                #expect(cursor.current().key.isEmpty && cursor.current().value.isEmpty)
                try Self.key(0).withUnsafeBytes { key in
                    try ([5] as [UInt8]).withUnsafeBytes { try cursor.put(bytes: $0, forKeyBytes: key) }
                }
                #expect(try cursor.move(.exact, key: Self.key(2)))
                #expect(cursor.current().value == [9, 9, 9])
            }
        }
        let all = try Self.entries(env, db)
        #expect(all.map(\.0) == [0, 1, 2, 3])
        #expect(all.map(\.1) == [[5], Self.value(1, 10), [9, 9, 9], Self.value(3, 10)])
    }

    @Test("a put through a read-only transaction's cursor fails and writes nothing")
    func refusesReadOnly() throws {
        let (dir, env, db) = try Self.emptyDatabase()
        defer { dir.remove() }
        try env.write { txn in try txn.put([1], for: Self.key(1), in: db) }
        #expect(throws: LMDBError.self) {
            try env.read { txn in
                try txn.withCursor(db) { cursor in
                    try Self.key(2).withUnsafeBytes { key in
                        try ([2] as [UInt8]).withUnsafeBytes {
                            try cursor.put(bytes: $0, forKeyBytes: key, append: true)
                        }
                    }
                }
            }
        }
        #expect(try Self.entries(env, db).map(\.0) == [1])
    }
}
