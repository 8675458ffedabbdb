import LMDBKit

/// Damage done to a closed store behind its back, as an intruder or a faulty disk would: what the tests of damage
/// reporting start from.
public enum StoreTampering {
    /// Rewrites the position the chain head (`meta/head`: an 8-byte big-endian position, then the 32-byte hash) names,
    /// leaving its hash as it was.
    public static func setHeadPosition(of path: String, to position: UInt64) throws {
        let env = try Environment(path: path)
        defer { env.close() }
        let meta = try env.openDatabase("meta", create: false)
        let key = Array("head".utf8)
        try env.write { txn in
            guard var head = try txn.value(for: key, in: meta), head.count >= 8 else {
                throw LMDBError.lmdb(code: -1, operation: "the store at \(path) has no chain head to tamper with")
            }
            head.replaceSubrange(0..<8, with: withUnsafeBytes(of: position.bigEndian) { Array($0) })
            try txn.put(head, for: key, in: meta)
        }
    }

    /// Cuts the log after position `end` as a careful intruder would: every later event removed, and the chain head set
    /// to event `end` and its hash (a record's bytes 1–32), so that the chain itself checks out to its new end. The
    /// views' checkpoints are left where the log ended.
    public static func cutLog(of path: String, after end: UInt64) throws {
        let env = try Environment(path: path)
        defer { env.close() }
        let meta = try env.openDatabase("meta", create: false)
        let events = try env.openDatabase("events", create: false)
        let key = { (position: UInt64) in withUnsafeBytes(of: position.bigEndian) { Array($0) } }
        try env.write { txn in
            guard let last = try txn.value(for: key(end), in: events), last.count >= 33 else {
                throw LMDBError.lmdb(code: -1, operation: "the store at \(path) has no event \(end) to cut the log after")
            }
            var position = end + 1
            while try txn.delete(key(position), in: events) { position += 1 }
            try txn.put(key(end) + last[1..<33], for: Array("head".utf8), in: meta)
        }
    }
}
