import Foundation
import LMDBKit
import Testing
import TestSupport

/// Creating a store on a disk that fills: the lock file's blocks are reserved before LMDB maps it (a full disk is an
/// error, not SIGBUS), and a data file cut short at creation is named as such.
@Suite("Environment creation")
struct EnvironmentCreationTests {
    @Test("lock.mdb's blocks are allocated when the environment opens, for every reader slot")
    func lockFileReserved() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let environment = try Environment(path: dir.path, options: EnvironmentOptions(maxReaders: 126))
        defer { environment.close() }
        var file = stat()
        #expect(stat(dir.path + "/lock.mdb", &file) == 0)
        #expect(Int(file.st_size) == 125 * 64 + 192, "LMDB's header and 126 reader slots, as LMDB sizes it")
        #expect(Int(file.st_blocks) * 512 >= Int(file.st_size), "every byte has a block behind it (no sparse tail)")
    }

    @Test("a new store whose second header page was never written is refused as an unfinished creation, and left as it is")
    func unfinishedCreation() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        do {
            let environment = try Environment(path: dir.path)
            environment.close()
        }
        let file = dir.path + "/data.mdb"
        #expect(truncate(file, 4096) == 0)
        let partial = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(throws: LMDBError.unfinishedCreation(path: dir.path, fileBytes: 4096)) {
            _ = try Environment(path: dir.path)
        }
        let error = LMDBError.unfinishedCreation(path: dir.path, fileBytes: 4096)
        #expect(error.description.contains("creation never finished") && error.description.contains("No event was ever recorded"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == partial, "nothing rewritten")
    }

    @Test(
        "a data.mdb cut within its first page, or not LMDB's, is refused without claiming it never held events",
        arguments: [6, 100, 4096])
    func unreadableHeader(bytes: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        do {
            let environment = try Environment(path: dir.path)
            defer { environment.close() }
            try environment.write { txn in
                let database = try txn.openDatabase("d", create: true)!
                for key in 0..<50 { try txn.put(Array(repeating: 7, count: 200), for: Array("k\(key)".utf8), in: database) }
            }
        }
        let file = dir.path + "/data.mdb"
        if bytes == 4096 {
            // A page of zeros: no header at all.
            try Data(repeating: 0, count: 4096).write(to: URL(fileURLWithPath: file))
        } else {
            #expect(truncate(file, off_t(bytes)) == 0)
        }
        let left = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(throws: LMDBError.unreadableHeader(path: dir.path, fileBytes: bytes)) {
            _ = try Environment(path: dir.path)
        }
        let description = LMDBError.unreadableHeader(path: dir.path, fileBytes: bytes).description
        #expect(description.contains("cut short") && description.contains("restore it from a backup"))
        #expect(!description.contains("No event was ever recorded"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == left, "nothing rewritten")
    }

    @Test("a store that held data, cut below two pages, is refused as truncated, not as a creation that never finished")
    func truncatedCopy() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        do {
            let environment = try Environment(path: dir.path)
            defer { environment.close() }
            for round in 0..<4 {
                try environment.write { txn in
                    let database = try txn.openDatabase("d", create: true)!
                    for key in 0..<200 { try txn.put(Array(repeating: 7, count: 200), for: Array("k\(round)-\(key)".utf8), in: database) }
                }
            }
        }
        let file = dir.path + "/data.mdb"
        #expect(truncate(file, 4096) == 0)
        #expect {
            _ = try Environment(path: dir.path)
        } throws: { error in
            guard case .truncated(let path, let fileBytes, let neededBytes)? = error as? LMDBError else { return false }
            return path == dir.path && fileBytes == 4096 && neededBytes > 8192
        }
        var status = stat()
        #expect(stat(file, &status) == 0 && status.st_size == 4096, "nothing rewritten")
    }

    @Test("a --store path that is a file says so")
    func storePathIsAFile() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        let file = dir.path + "/afile"
        try Data("hi\n".utf8).write(to: URL(fileURLWithPath: file))
        #expect {
            _ = try Environment(path: file + "/sub")
        } throws: { error in
            (error as? LMDBError)?.description.contains("is a file, not a directory") == true
        }
    }
}
