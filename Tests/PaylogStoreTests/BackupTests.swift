import Foundation
@testable import PaylogStore
import TestSupport
import Testing

@Suite("Backup")
struct BackupTests {
    /// Every event of `store` as (position, id, stream, hash, payload).
    func events(_ store: EventStore) throws -> [String] {
        var all: [String] = []
        try store.forEach { event in
            let payload = try event.payload.base64EncodedString()
            all.append("\(event.position) \(event.id) \(event.streamID) \(event.hashHex) \(payload)")
            return true
        }
        return all
    }

    /// A store with a view, written in many small appends so LMDB's free list holds pages.
    func populate(_ path: String, appends: Int = 400) async throws -> EventStore {
        let store = try EventStore(path: path, projections: [CountingProjection()])
        for index in 0..<appends {
            let payload = String(repeating: "evidence \(index) ", count: 1 + index % 7)
            _ = try await store.append([StoreFixtures.event("T", payload)], to: "pay-\(index % 37)")
        }
        return store
    }

    @Test("a compacted backup holds the same events, chain and views, in a smaller file than a page-for-page copy")
    func compactedCopy() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try await populate(dir.path + "/store")
        defer { store.close() }
        let compacted = try store.backup(to: dir.path + "/compacted")
        let plain = try store.backup(to: dir.path + "/plain", compact: false)
        #expect(compacted.compacted && !plain.compacted)
        #expect(compacted.copyFileBytes > 0)
        #expect(compacted.copyFileBytes < plain.copyFileBytes)
        #expect(plain.copyFileBytes <= plain.sourceFileBytes)

        let expected = try events(store)
        #expect(expected.count == 400)
        for copyPath in [compacted.destination, plain.destination] {
            let copy = try EventStore(path: copyPath, projections: [CountingProjection()])
            #expect(try events(copy) == expected)
            let chain = try copy.verifyChain()
            #expect(chain.isIntact)
            #expect(chain.lastPosition == 400)
            let (copyTotals, storeTotals) = (try CountingProjection.totals(copy), try CountingProjection.totals(store))
            #expect(copyTotals.applied == storeTotals.applied && copyTotals.last == storeTotals.last)
            #expect(try CountingProjection.count(copy, "pay-5") == CountingProjection.count(store, "pay-5"))
            copy.close()
        }
    }

    @Test("a backup taken while appends run is one consistent snapshot of the log")
    func copyDuringAppends() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try await populate(dir.path + "/store", appends: 50)
        defer { store.close() }
        let writing = Task {
            for index in 0..<300 {
                _ = try await store.append([StoreFixtures.event("T", "late \(index)")], to: "late-\(index % 5)")
            }
        }
        let report = try store.backup(to: dir.path + "/copy")
        try await writing.value

        let copy = try EventStore(path: report.destination, projections: [CountingProjection()])
        defer { copy.close() }
        let chain = try copy.verifyChain()
        #expect(chain.isIntact)
        #expect(chain.lastPosition >= 50 && chain.lastPosition <= 350)
        let copied = try events(copy)
        #expect(copied == Array(try events(store).prefix(copied.count)))
        // The view in the copy is the view of the same snapshot: it has applied exactly the copied events.
        let totals = try CountingProjection.totals(copy)
        #expect(totals.applied == chain.lastPosition && totals.last == chain.lastPosition)
    }

    @Test("a file, a directory that is not empty and the store's own directory are refused, and left as they were")
    func refusedDestinations() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try await populate(dir.path + "/store", appends: 5)
        defer { store.close() }

        let file = dir.path + "/a-file"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: file))
        #expect {
            _ = try store.backup(to: file)
        } throws: { error in
            guard case .backupFailed(let destination, let reason) = error as? EventStoreError else { return false }
            return destination == file && reason.contains("file")
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me")

        let occupied = dir.path + "/occupied"
        try FileManager.default.createDirectory(atPath: occupied, withIntermediateDirectories: true)
        try Data("other".utf8).write(to: URL(fileURLWithPath: occupied + "/notes.txt"))
        #expect {
            _ = try store.backup(to: occupied)
        } throws: { error in
            (error as? EventStoreError)?.description.contains("not empty") == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: occupied) == ["notes.txt"])

        #expect {
            _ = try store.backup(to: dir.path + "/store")
        } throws: { error in
            (error as? EventStoreError)?.description.contains("own directory") == true
        }
        #expect(try store.verifyChain().isIntact)
        #expect(try store.lastPosition() == 5)
    }

    @Test(
        "a destination inside the store's directory is refused, however it is spelled, and nothing is created there",
        arguments: ["store/copy", "store/a/b/copy", "store/empty", "link/copy", "elsewhere/../store/copy"])
    func destinationInsideTheStore(relative: String) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try await populate(dir.path + "/store", appends: 5)
        defer { store.close() }
        try FileManager.default.createDirectory(atPath: dir.path + "/store/empty", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/link", withDestinationPath: dir.path + "/store")
        try FileManager.default.createDirectory(atPath: dir.path + "/elsewhere", withIntermediateDirectories: false)
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/store"))
        let destination = dir.path + "/" + relative
        #expect {
            _ = try store.backup(to: destination)
        } throws: { error in
            guard case .backupFailed(let named, let reason) = error as? EventStoreError else { return false }
            return named == destination && reason.contains("inside the store's directory")
        }
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/store")) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/store/empty").isEmpty)
        #expect(try store.lastPosition() == 5)
    }

    @Test("a destination beside the store whose name starts with the store's is not taken for one inside it")
    func destinationBesideTheStore() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try await populate(dir.path + "/store", appends: 5)
        defer { store.close() }
        let report = try store.backup(to: dir.path + "/store-copy")
        let copy = try EventStore(path: report.destination)
        defer { copy.close() }
        #expect(try copy.lastPosition() == 5)
    }

    @Test("a destination the system refuses is named in the system's words, never with advice about the store")
    func destinationRefusedBySystem() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path + "/store")
        defer { store.close() }
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir.path + "/afile"))
        #expect {
            _ = try store.backup(to: dir.path + "/afile/copy")
        } throws: { error in
            let text = "\(error)"
            return text.contains("Cannot back up the store to \(dir.path)/afile/copy: the directory cannot be created: ")
                && text.contains("Not a directory") && !text.contains("--store")
        }
        // A read-only destination's errno (EROFS needs a mount to provoke): the system's words, not the store's
        // advice to pass --read-only.
        let reason = EventStore.systemReason(.lmdb(code: EROFS, operation: "create directory /mnt/ro/copy"))
        #expect(reason == "create directory /mnt/ro/copy failed: Read-only file system")
    }
}
