import Crypto
import Foundation
import LMDBKit
import SwiftProtobuf
import TestSupport
import Testing

@testable import PaylogStore

/// Payloads stored as zstd frames (record format byte 2, log format 3): exact round trips, the dictionaries kept
/// in the log, hashes that do not depend on the compression, and damage named by position.
@Suite("Compressed payloads")
struct PayloadCompressionTests {
    /// Evidence shaped like a Square launch URL: most of its text repeats from event to event.
    static func evidence(_ index: Int) -> Data {
        Data(("square-commerce-v1://payment/create?data=%7B%22amount_money%22%3A%7B%22amount%22%3A\(1_000 + 37 * index)"
            + "%2C%22currency_code%22%3A%22USD%22%7D%2C%22callback_url%22%3A%22myshop%3A%2F%2Fpaylog-callback%3F"
            + "payment%3Dpay-\(index)%22%2C%22client_id%22%3A%22sq0idp-demo%22%2C%22version%22%3A%221.3%22%7D").utf8)
    }

    /// Raw-content dictionaries (zstd takes any bytes as one): the first holds the URLs' shared text.
    static let first = Array(String(decoding: evidence(0), as: UTF8.self).utf8) + Array("amount_money currency_code callback_url".utf8)
    static let second = Array("sumupmerchant://pay/1.0?affiliate-key=&total=&currency=EUR&title=&callback=".utf8) + first

    private static func event(_ payload: Data) -> NewEvent {
        NewEvent(id: UUID(), type: "Requested", payload: payload, observedAt: Timestamp(microseconds: 1_700_000_000_000_000), actor: "test")
    }

    /// Every stored value, by position, read straight from LMDB.
    static func storedValues(at path: String) throws -> [UInt64: [UInt8]] {
        let environment = try Environment(path: path)
        defer { environment.close() }
        let events = try environment.openDatabase("events", create: false)
        var values: [UInt64: [UInt8]] = [:]
        try environment.read { txn in
            try txn.withCursor(events) { cursor in
                var found = try cursor.move(.first)
                while found {
                    cursor.withCurrent { key, value in values[StoreKeys.readUInt64(key)] = Array(value) }
                    found = try cursor.move(.next)
                }
            }
        }
        return values
    }

    /// The `payload-dictionary/` entries of `meta`, by number.
    static func storedDictionaries(at path: String) throws -> [UInt32: [UInt8]] {
        let environment = try Environment(path: path)
        defer { environment.close() }
        let meta = try environment.openDatabase("meta", create: false)
        var found: [UInt32: [UInt8]] = [:]
        try environment.read { txn in
            for number in UInt32(0)...8 {
                if let bytes = try txn.value(for: StoreKeys.payloadDictionary(number), in: meta) { found[number] = bytes }
            }
        }
        return found
    }

    /// The record of a stored value as SwiftProtobuf reads it.
    static func record(_ value: [UInt8]) throws -> Paylog_Store_V1_EventRecord {
        try Paylog_Store_V1_EventRecord(serializedBytes: Array(value[RecordCodec.headerSize...]))
    }

    @Test("evidence is stored as a frame and reads back exactly; short and empty payloads stay as given; the chain verifies")
    func roundTrip() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, payloadDictionary: Self.first)
        var payloads: [Data] = (0..<20).map(Self.evidence)
        payloads += [Data("ok".utf8), Data()]
        for (index, payload) in payloads.enumerated() {
            _ = try await store.append([Self.event(payload)], to: "pay-\(index % 4)")
        }
        let read = try store.read(from: 1, limit: 100)
        #expect(try read.map { try $0.payload } == payloads)
        #expect(read.map(\.payloadByteCount) == payloads.map(\.count))
        #expect(read.map(\.storedPayload.isCompressed) == payloads.map { $0.count >= 32 })
        #expect(try store.verifyChain().isIntact)
        store.close()

        let values = try Self.storedValues(at: dir.path)
        for (index, payload) in payloads.enumerated() {
            let value = try #require(values[UInt64(index + 1)])
            let record = try Self.record(value)
            if payload.count >= 32 {
                #expect(value[0] == 2)
                #expect(record.payload.isEmpty && record.payloadDictionary == 1)
                #expect(record.payloadZstd.count * 2 < payload.count, "frame \(record.payloadZstd.count) B for \(payload.count) B")
            } else {
                #expect(value[0] == 1)
                #expect(record.payload == payload && record.payloadZstd.isEmpty)
            }
        }
        #expect(try Self.storedDictionaries(at: dir.path) == [1: Self.first])

        // Opened without a dictionary, the store reads with the one it holds and goes on compressing with it.
        let reopened = try EventStore(path: dir.path)
        _ = try await reopened.append([Self.event(Self.evidence(99))], to: "pay-9")
        #expect(try reopened.read(from: 1, limit: 100).map { try $0.payload } == payloads + [Self.evidence(99)])
        reopened.close()
        #expect(try Self.record(try #require(try Self.storedValues(at: dir.path)[23])).payloadDictionary == 1)
    }

    @Test("stored payloads are equal, and hash alike, by their bytes however stored; damaged frames only by their own bytes")
    func storedPayloadEquality() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, payloadDictionary: Self.first)
        defer { store.close() }
        let payloads = (0..<6).map(Self.evidence)
        _ = try await store.append(payloads.map(Self.event), to: "pay-1")
        let first = try store.read(from: 1, limit: 10).map(\.storedPayload)
        let second = try store.read(from: 1, limit: 10).map(\.storedPayload)
        #expect(first.allSatisfy { $0.isCompressed })
        for (index, stored) in first.enumerated() {
            #expect(stored == second[index] && stored.hashValue == second[index].hashValue, "read twice: \(index)")
            let plain = StoredPayload(payloads[index])
            #expect(stored == plain && stored.hashValue == plain.hashValue, "compressed against plain: \(index)")
            #expect(stored.storedByteCount < plain.storedByteCount && stored.byteCount == plain.byteCount)
            for (other, otherStored) in first.enumerated() where other != index { #expect(stored != otherStored) }
        }
        // Frames that do not decompress: equal only to the same bytes under the same dictionary.
        let dictionaries = try PayloadDictionaries.plain()
        let zero = try #require(dictionaries.dictionary(0))
        let damaged: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x01, 0x02, 0x03]
        func frame(_ bytes: [UInt8]) -> StoredPayload { bytes.withUnsafeBytes { StoredPayload(frame: $0, dictionary: zero) } }
        #expect(frame(damaged) == frame(damaged) && frame(damaged).hashValue == frame(damaged).hashValue)
        #expect(frame(damaged) != frame(damaged.dropLast() + [0x04]))
        #expect(frame(damaged) != frame(Array(damaged.dropLast())))
        #expect(frame(damaged) != StoredPayload(Data(damaged)))
        #expect(frame([]).storedByteCount == 0 && frame(damaged).storedByteCount == damaged.count)
    }

    @Test("a rebuild folds compressed payloads (decompressed as they are read) into the view the appends left")
    func rebuildReadsCompressedPayloads() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, projections: [TaggingProjection()], payloadDictionary: Self.first)
        defer { store.close() }
        for index in 0..<300 {
            _ = try await store.append([Self.event(Self.evidence(index % 40))], to: "pay-\(index % 70)")
        }
        #expect(try store.read(from: 1, limit: 300).allSatisfy { $0.storedPayload.isCompressed })
        try await store.rebuildProjections(chunk: 64, sortMemory: 4_096)
        let check = try ProjectionRebuild.run(store)
        #expect(check.events == 300 && check.differences.isEmpty, "\(check.differences.prefix(3))")
        // The `tags` index is keyed by the payload bytes: the 40 distinct URLs, as appended.
        let tags = try store.readViews { txn, databases in try txn.count(databases["tags"]) }
        #expect(tags == 40)
        let firstTag = try store.readViews { txn, databases in try txn.value(for: [UInt8](Self.evidence(0)), in: databases["tags"]) }
        #expect(firstTag != nil)
    }

    @Test("a store that holds no dictionary compresses nothing: every record as given, nothing added to meta")
    func noDictionaryNoCompression() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        for index in 0..<5 { _ = try await store.append([Self.event(Self.evidence(index))], to: "pay") }
        _ = try await store.append([Self.event(Data(repeating: UInt8(ascii: "x"), count: 300))], to: "pay")
        #expect(try store.read(from: 1, limit: 10).allSatisfy { !$0.storedPayload.isCompressed })
        store.close()
        #expect(try Self.storedValues(at: dir.path).values.allSatisfy { $0[0] == 1 })
        #expect(try Self.storedDictionaries(at: dir.path).isEmpty)
    }

    @Test("a new dictionary is kept beside the old one: old payloads still read, new ones use it; none is stored twice")
    func dictionariesAccumulate() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var expected: [Data] = []
        for (round, dictionary) in [Self.first, Self.second, Self.first].enumerated() {
            let store = try EventStore(path: dir.path, payloadDictionary: dictionary)
            for index in 0..<3 {
                let payload = Self.evidence(round * 10 + index)
                expected.append(payload)
                _ = try await store.append([Self.event(payload)], to: "pay-\(round)")
            }
            store.close()
        }
        #expect(try Self.storedDictionaries(at: dir.path) == [1: Self.first, 2: Self.second])
        let values = try Self.storedValues(at: dir.path)
        let numbers = try (1...9).map { try Self.record(try #require(values[UInt64($0)])).payloadDictionary }
        #expect(numbers == [1, 1, 1, 2, 2, 2, 1, 1, 1])
        let store = try EventStore(path: dir.path)
        defer { store.close() }
        #expect(try store.read(from: 1, limit: 100).map { try $0.payload } == expected)
        #expect(try store.verifyChain().isIntact)
    }

    @Test("a stray `payload-dictionary/` key of another length is passed over, and the dictionaries after it still load")
    func strayDictionaryKey() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let environment = try Environment(path: dir.path)
        let meta = try environment.openDatabase("meta", create: true)
        // Sorts before `payload-dictionary/` · 00 00 00 01.
        try environment.write { txn in try txn.put([1], for: StoreKeys.payloadDictionaryPrefix + [0], in: meta) }
        environment.close()
        let store = try EventStore(path: dir.path, payloadDictionary: Self.first)
        _ = try await store.append([Self.event(Self.evidence(1))], to: "pay")
        store.close()
        let reopened = try EventStore(path: dir.path)
        defer { reopened.close() }
        #expect(try reopened.read(from: 1, limit: 10).map { try $0.payload } == [Self.evidence(1)])
    }

    @Test("hashes cover the payload as appended: canonical bytes, and an export imports with the same hashes under any dictionary")
    func hashesIndependentOfCompression() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let source = try EventStore(path: dir.path + "/a", payloadDictionary: Self.first)
        for index in 0..<12 {
            _ = try await source.append([Self.event(Self.evidence(index))], to: "pay-\(index % 3)")
        }
        let original = try source.read(from: 1, limit: 100)
        source.close()

        // Each stored hash is SHA-256 over the previous one and the record as format byte 1 would hold it.
        let values = try Self.storedValues(at: dir.path + "/a")
        var previous = ChainDigest.genesis
        for event in original {
            var canonical = try Self.record(try #require(values[event.position]))
            #expect(!canonical.payloadZstd.isEmpty)
            canonical.payloadZstd = Data()
            canonical.payloadDictionary = 0
            canonical.payload = try event.payload
            var hasher = SHA256()
            hasher.update(data: previous.bytes + (try canonical.serializedBytes() as [UInt8]))
            #expect(event.hash.bytes == Array(hasher.finalize()))
            previous = event.hash
        }

        let lines = try original.map { try ExportLine($0).recordedEvent() }
        for (name, dictionary) in [("b", nil), ("c", Self.second)] as [(String, [UInt8]?)] {
            let target = try EventStore(path: dir.path + "/" + name, payloadDictionary: dictionary)
            try await target.importEvents(lines)
            let imported = try target.read(from: 1, limit: 100)
            #expect(imported.map(\.hash) == original.map(\.hash))
            #expect(try imported.map { try $0.payload } == original.map { try $0.payload })
            #expect(try target.verifyChain().isIntact)
            target.close()
        }
    }

    @Test("a damaged frame is named by position when read, verified or exported; the other events still read")
    func damagedFrame() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, payloadDictionary: Self.first)
        for index in 0..<3 { _ = try await store.append([Self.event(Self.evidence(index))], to: "pay") }
        store.close()
        let environment = try Environment(path: dir.path)
        let events = try environment.openDatabase("events", create: false)
        try environment.write { txn in
            var value = try #require(try txn.value(for: StoreKeys.event(2), in: events))
            let frame = try Self.record(value).payloadZstd
            let start = try #require(value.firstRange(of: Array(frame))).lowerBound
            value[start] ^= 0xff  // zstd's magic number: the frame no longer reads as one
            try txn.put(value, for: StoreKeys.event(2), in: events)
        }
        environment.close()

        let damaged = try EventStore(path: dir.path)
        defer { damaged.close() }
        let read = try damaged.read(from: 1, limit: 10)
        #expect(read.count == 3)
        #expect(try read[0].payload == Self.evidence(0) && read[2].payload == Self.evidence(2))
        #expect {
            _ = try read[1].payload
        } throws: { error in
            guard case .corruptRecord(let position, let reason) = error as? EventStoreError else { return false }
            return position == 2 && reason.contains("compressed payload is damaged")
        }
        #expect(throws: EventStoreError.self) { _ = try ExportLine(read[1]) }
        let report = try damaged.verifyChain()
        #expect(!report.isIntact && report.firstBrokenPosition == 2)
    }

    @Test("a record naming a dictionary the store does not hold is refused with its position and the number")
    func unknownDictionary() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path, payloadDictionary: Self.first)
        _ = try await store.append([Self.event(Self.evidence(1))], to: "pay")
        store.close()
        let environment = try Environment(path: dir.path)
        let events = try environment.openDatabase("events", create: false)
        try environment.write { txn in
            var value = try #require(try txn.value(for: StoreKeys.event(1), in: events))
            // Field 14 ends the record: tag 0x70, then the number 1.
            #expect(Array(value.suffix(2)) == [0x70, 1])
            value[value.count - 1] = 7
            try txn.put(value, for: StoreKeys.event(1), in: events)
        }
        environment.close()
        let damaged = try EventStore(path: dir.path)
        defer { damaged.close() }
        #expect {
            _ = try damaged.read(from: 1, limit: 10)
        } throws: { error in
            guard case .corruptRecord(let position, let reason) = error as? EventStoreError else { return false }
            return position == 1 && reason.contains("dictionary 7, which the store does not hold")
        }
    }

    @Test("a format-2 store opens as format 5: its records untouched, the dictionary added, new payloads compressed")
    func formatTwoOpens() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // A format-2 store: records of format byte 1 only, no dictionary, `format` = 2.
        let old = try EventStore(path: dir.path)
        for index in 0..<4 { _ = try await old.append([Self.event(Data("short \(index)".utf8))], to: "pay") }
        old.close()
        let environment = try Environment(path: dir.path)
        let meta = try environment.openDatabase("meta", create: false)
        try environment.write { txn in try txn.put([0, 0, 0, 2], for: StoreKeys.format, in: meta) }
        environment.close()
        let before = try Self.storedValues(at: dir.path)
        #expect(before.values.allSatisfy { $0[0] == 1 })

        let store = try EventStore(path: dir.path, payloadDictionary: Self.first)
        _ = try await store.append([Self.event(Self.evidence(5))], to: "pay")
        #expect(try store.verifyChain().isIntact)
        store.close()
        let after = try Self.storedValues(at: dir.path)
        #expect(before.allSatisfy { after[$0.key] == $0.value })
        #expect(after[5]?[0] == 2)
        #expect(try FormatMigrationTests.format(at: dir.path) == [0, 0, 0, 5])
        #expect(try Self.storedDictionaries(at: dir.path) == [1: Self.first])
    }
}
