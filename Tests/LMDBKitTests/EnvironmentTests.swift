import TestSupport
import Foundation
import LMDBKit
import Testing

@Suite("LMDB environment")
struct EnvironmentTests {
    @Test("a write commits and a read sees it; values are copies that outlive the transaction")
    func writeThenRead() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let env = try Environment(path: dir.path)
        let db = try env.openDatabase("kv")
        try env.write { txn in try txn.put(Array("value".utf8), for: Array("key".utf8), in: db) }
        let copied = try env.read { txn in try txn.value(for: Array("key".utf8), in: db) }
        #expect(copied == Array("value".utf8))
        let missing = try env.read { txn in try txn.value(for: Array("nope".utf8), in: db) }
        #expect(missing == nil)
    }

    @Test("a throwing write body aborts: nothing is written")
    func throwingBodyAborts() throws {
        struct Boom: Error {}
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let env = try Environment(path: dir.path)
        let db = try env.openDatabase("kv")
        #expect(throws: Boom.self) {
            try env.write { txn in
                try txn.put([1], for: [1], in: db)
                throw Boom()
            }
        }
        #expect(try env.read { txn in try txn.count(db) } == 0)
    }

    @Test("a nested transaction that throws is undone alone; the parent commits the rest")
    func nestedAbortIsLocal() throws {
        struct Boom: Error {}
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let env = try Environment(path: dir.path)
        let db = try env.openDatabase("kv")
        try env.write { txn in
            try txn.put([1], for: [1], in: db)
            _ = try? txn.nested { child in
                try child.put([2], for: [2], in: db)
                throw Boom()
            }
            try txn.nested { child in try child.put([3], for: [3], in: db) }
        }
        let keys = try env.read { txn in
            try txn.withCursor(db) { cursor in
                var keys: [[UInt8]] = []
                var found = try cursor.move(.first)
                while found {
                    keys.append(cursor.current().key)
                    found = try cursor.move(.next)
                }
                return keys
            }
        }
        #expect(keys == [[1], [3]])
    }

    @Test("the map grows by itself from a tiny initial size to far beyond it")
    func mapGrowth() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let initial = 256 * 1024
        let env = try Environment(path: dir.path, options: EnvironmentOptions(initialMapSize: initial))
        let db = try env.openDatabase("kv")
        let value = [UInt8](repeating: 0xAB, count: 4096)
        for batch in 0..<40 {
            try env.write { txn in
                for item in 0..<100 {
                    var key = withUnsafeBytes(of: UInt32(batch * 100 + item).bigEndian) { Array($0) }
                    key.append(0)
                    try txn.put(value, for: key, in: db)
                }
            }
        }
        #expect(env.mapGrowths > 0)
        #expect(env.mapSize >= 16 * initial)
        let count = try env.read { txn in try txn.count(db) }
        #expect(count == 4000)
        let sample = try env.read { txn in
            try txn.value(for: withUnsafeBytes(of: UInt32(3999).bigEndian) { Array($0) } + [0], in: db)
        }
        #expect(sample == value)
    }

    @Test("a write that cannot fit under the maximum map fails with MDB_MAP_FULL, without crashing or losing data")
    func mapFullAtMaximum() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let size = 256 * 1024
        let env = try Environment(path: dir.path, options: EnvironmentOptions(initialMapSize: size, maximumMapSize: size))
        let db = try env.openDatabase("kv")
        try env.write { txn in try txn.put([7], for: [7], in: db) }
        var caught: LMDBError?
        do {
            try env.write { txn in
                for item in 0..<1000 {
                    try txn.put([UInt8](repeating: 1, count: 4096), for: withUnsafeBytes(of: UInt32(item)) { Array($0) }, in: db)
                }
            }
        } catch let error as LMDBError {
            caught = error
        }
        #expect(caught?.isMapFull == true)
        #expect(caught?.description.contains("MDB_MAP_FULL") == true)
        #expect(try env.read { txn in try txn.value(for: [7], in: db) } == [7])
        try env.write { txn in try txn.put([8], for: [8], in: db) }
        #expect(try env.read { txn in try txn.count(db) } == 2)
    }

    @Test("opening the same path twice in one process is refused")
    func openTwiceRefused() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let env = try Environment(path: dir.path)
        #expect(throws: LMDBError.alreadyOpen(path: dir.path)) { _ = try Environment(path: dir.path) }
        env.close()
        let again = try Environment(path: dir.path)
        again.close()
    }

    @Test("after close, transactions fail with a clear error")
    func closed() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let env = try Environment(path: dir.path)
        env.close()
        #expect(throws: LMDBError.closed) { try env.read { _ in 0 } }
    }

    @Test("errors carry LMDB's code and a readable message")
    func errorMessages() {
        let error = LMDBError.lmdb(code: -30792, operation: "put in events")
        #expect(error.code == -30792)
        #expect(error.isMapFull)
        #expect(error.description.contains("put in events"))
        #expect(error.description.contains("-30792"))
    }

    @Test("500 concurrent read transactions, all open at once, never hit MDB_READERS_FULL")
    func fiveHundredReaders() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let env = try Environment(path: dir.path)
        let db = try env.openDatabase("kv")
        try env.write { txn in try txn.put([42], for: [1], in: db) }
        let readers = 500
        let allInside = DispatchGroup()
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        let failures = LockedCounter()
        let inside = LockedCounter()
        for _ in 0..<readers {
            allInside.enter()
            finished.enter()
            let thread = Thread {
                do {
                    let value = try env.read { txn -> [UInt8]? in
                        inside.increment()
                        allInside.leave()
                        release.wait()  // hold the read transaction open until all 500 are inside
                        return try txn.value(for: [1], in: db)
                    }
                    if value != [42] { failures.increment() }
                } catch {
                    failures.increment()
                    allInside.leave()
                }
                finished.leave()
            }
            thread.stackSize = 256 * 1024
            thread.start()
        }
        allInside.wait()
        #expect(inside.value == readers)
        for _ in 0..<readers { release.signal() }
        finished.wait()
        #expect(failures.value == 0)
    }
}
