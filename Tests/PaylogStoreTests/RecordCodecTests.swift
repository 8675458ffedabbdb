import Crypto
import Foundation
import SwiftProtobuf
import TestSupport
import Testing

@testable import PaylogStore

/// The hand-written envelope writer against SwiftProtobuf: the stored records must be byte for byte what
/// protobuf writes, or imports of older exports would no longer verify.
@Suite("Writing stored records")
struct RecordCodecTests {
    static func text(_ generator: inout SeededGenerator) -> String {
        let pieces = ["", "a", "pay-0001", "Requested", "café", "🧾", String(repeating: "x", count: 200)]
        return (0..<Int.random(in: 0...2, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    static func value(_ generator: inout SeededGenerator) -> UInt64 {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return 0
        case 1: return UInt64.random(in: 1...127, using: &generator)
        case 2: return UInt64.random(in: 128...UInt64(UInt32.max), using: &generator)
        default: return generator.next()
        }
    }

    static func event(_ generator: inout SeededGenerator) -> NewEvent {
        let observed: Timestamp? = Bool.random(using: &generator)
            ? Timestamp(microseconds: Bool.random(using: &generator) ? 0 : Int64(bitPattern: value(&generator))) : nil
        // Tags: none declared, declared as none, or one to three (log format 5).
        let tags: [String]? = switch Int.random(in: 0..<3, using: &generator) {
        case 0: nil
        case 1: []
        default: (0..<Int.random(in: 1...3, using: &generator)).map { _ in "tx:" + text(&generator) }
        }
        return NewEvent(
            id: UUID(), type: text(&generator), schemaVersion: UInt32(truncatingIfNeeded: value(&generator)),
            payload: Data((0..<Int.random(in: 0...400, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }),
            observedAt: observed, correlationID: text(&generator), causationID: text(&generator), actor: text(&generator),
            tags: tags)
    }

    /// A random event with a random envelope the store could assign it.
    static func envelope(
        _ generator: inout SeededGenerator
    ) -> (event: NewEvent, streamID: String, version: UInt64, position: UInt64, recordedAt: Timestamp) {
        (event(&generator), text(&generator), value(&generator), value(&generator),
         Timestamp(microseconds: Int64(bitPattern: value(&generator))))
    }

    /// The record as SwiftProtobuf writes it from the same fields.
    static func reference(
        _ event: NewEvent, streamID: String, version: UInt64, position: UInt64, recordedAt: Timestamp
    ) throws -> [UInt8] {
        var record = Paylog_Store_V1_EventRecord()
        record.eventID = withUnsafeBytes(of: event.id.uuid) { Data($0) }
        record.streamID = streamID
        record.version = version
        record.position = position
        record.type = event.type
        record.schemaVersion = event.schemaVersion
        record.recordedAtUs = recordedAt.microseconds
        if let observed = event.observedAt { record.observedAtUs = observed.microseconds }
        record.correlationID = event.correlationID
        record.causationID = event.causationID
        record.actor = event.actor
        record.payload = event.payload
        record.tags = event.tags ?? []
        record.tagsDeclared = event.tags != nil
        return try record.serializedBytes()
    }

    @Test("5,000 random envelopes: the same bytes as SwiftProtobuf, the right chain hash, and they decode back")
    func sameBytesAsSwiftProtobuf() throws {
        var generator = SeededGenerator(seed: 42)
        var previous = try #require(ChainDigest(bytes: [UInt8](repeating: 7, count: 32)))
        let plain = try PayloadDictionaries.plain()
        for _ in 0..<5_000 {
            let (event, streamID, version, position, recordedAt) = Self.envelope(&generator)
            let (value, hash) = RecordCodec.storedValue(
                event, streamID: streamID, version: version, position: position, recordedAt: recordedAt, previous: previous,
                dictionaries: plain)
            let expected = try Self.reference(event, streamID: streamID, version: version, position: position, recordedAt: recordedAt)
            #expect(value[0] == 1)
            #expect(Array(value[33...]) == expected)
            #expect(Array(value[1..<33]) == hash.bytes)
            var hasher = SHA256()
            hasher.update(data: previous.bytes + expected)
            #expect(hash.bytes == Array(hasher.finalize()))
            let decoded = try value.withUnsafeBytes { try RecordCodec.decode($0, position: position, dictionaries: plain) }
            #expect(try RecordCodec.sameContent(decoded, event, streamID: streamID))
            #expect(decoded.tags == event.tags)
            #expect(decoded.version == version && decoded.position == position && decoded.recordedAt == recordedAt)
            previous = hash
        }
    }

    @Test("2,000 random envelopes with compressible payloads: SwiftProtobuf's bytes, the canonical hash, exact payloads back")
    func compressedRecords() throws {
        var generator = SeededGenerator(seed: 43)
        let words = ["amount_money", "currency_code", "callback_url", "%22%3A%22", "pay-", "USD", "sumupmerchant://pay/1.0?"]
        let dictionaries = try PayloadDictionaries.inMemory([1: Array(words.joined(separator: "&").utf8)], current: 1)
        var previous = ChainDigest.genesis
        var compressed = 0
        for _ in 0..<2_000 {
            var (event, streamID, version, position, recordedAt) = Self.envelope(&generator)
            event.payload = Data((0..<Int.random(in: 0...40, using: &generator)).map { _ in words.randomElement(using: &generator)! }.joined().utf8)
            let (value, hash) = RecordCodec.storedValue(
                event, streamID: streamID, version: version, position: position, recordedAt: recordedAt, previous: previous,
                dictionaries: dictionaries)
            let canonical = try Self.reference(event, streamID: streamID, version: version, position: position, recordedAt: recordedAt)
            var hasher = SHA256()
            hasher.update(data: previous.bytes + canonical)
            #expect(hash.bytes == Array(hasher.finalize()))
            #expect(Array(value[1..<33]) == hash.bytes)
            if value[0] == 2 {
                compressed += 1
                let record = try Paylog_Store_V1_EventRecord(serializedBytes: Array(value[33...]))
                #expect(record.payload.isEmpty && record.payloadDictionary == 1 && record.payloadZstd.count < event.payload.count)
                #expect(try (record.serializedBytes() as [UInt8]) == Array(value[33...]))
            } else {
                #expect(value[0] == 1 && Array(value[33...]) == canonical)
            }
            let decoded = try value.withUnsafeBytes { try RecordCodec.decode($0, position: position, dictionaries: dictionaries) }
            #expect(try decoded.payload == event.payload)
            #expect(decoded.tags == event.tags)
            #expect(try RecordCodec.sameContent(decoded, event, streamID: streamID))
            let recomputed = try value.withUnsafeBytes {
                try RecordCodec.recomputeHash($0, position: position, previous: previous, dictionaries: dictionaries)
            }
            #expect(recomputed == hash)
            previous = hash
        }
        #expect(compressed > 1_500, "\(compressed) of 2,000 records compressed")
    }
}
