import Foundation
import SwiftProtobuf
import TestSupport
import Testing

@testable import PaylogStore

/// The hand-written envelope decoder against SwiftProtobuf, the reference for what the wire format means.
@Suite("Envelope decoder")
struct EnvelopeDecoderTests {
    /// A deterministic byte source, so a failure reproduces.
    private static func generator(seed: UInt64) -> () -> UInt64 {
        var generator = SeededGenerator(seed: seed)
        return { generator.next() }
    }

    private static func randomRecord(_ next: () -> UInt64) -> Paylog_Store_V1_EventRecord {
        func text(_ maximum: UInt64) -> String {
            let alphabet = Array("abcXYZ019-_:/?&=é€😀")
            return String((0..<Int(next() % (maximum + 1))).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
        }
        var record = Paylog_Store_V1_EventRecord()
        record.eventID = Data((0..<16).map { _ in UInt8(truncatingIfNeeded: next()) })
        record.streamID = text(40)
        record.version = next() % 3 == 0 ? next() : next() % 100
        record.position = next() % 1_000_000
        record.type = text(20)
        record.schemaVersion = UInt32(truncatingIfNeeded: next() % 4)
        record.recordedAtUs = Int64(bitPattern: next() % 2 == 0 ? next() : next() % 2_000_000_000_000_000)
        if next() % 2 == 0 { record.observedAtUs = Int64(bitPattern: next()) }
        record.correlationID = text(10)
        record.causationID = text(10)
        record.actor = text(10)
        record.payload = Data((0..<Int(next() % 300)).map { _ in UInt8(truncatingIfNeeded: next()) })
        record.tags = (0..<Int(next() % 3)).map { _ in text(12) }
        record.tagsDeclared = next() % 3 != 0
        return record
    }

    /// What the store decoded before this decoder existed: SwiftProtobuf, then the same envelope checks.
    private static func reference(_ bytes: [UInt8], hash: ChainDigest) -> RecordedEvent? {
        guard let record = try? Paylog_Store_V1_EventRecord(serializedBytes: bytes), record.eventID.count == 16 else {
            return nil
        }
        let b = Array(record.eventID)
        return RecordedEvent(
            id: UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])),
            streamID: record.streamID, version: record.version, position: record.position, type: record.type,
            schemaVersion: record.schemaVersion, recordedAt: Timestamp(microseconds: record.recordedAtUs),
            observedAt: record.hasObservedAtUs ? Timestamp(microseconds: record.observedAtUs) : nil,
            correlationID: record.correlationID, causationID: record.causationID, actor: record.actor,
            tags: record.tagsDeclared || !record.tags.isEmpty ? record.tags : nil, payload: record.payload, hash: hash)
    }

    private static func decoded(_ bytes: [UInt8], hash: ChainDigest) -> RecordedEvent? {
        bytes.withUnsafeBytes { try? EnvelopeDecoder.decode($0, hash: hash) }
    }

    @Test("every field round-trips exactly as SwiftProtobuf reads it")
    func roundTrip() throws {
        let next = Self.generator(seed: 1)
        let hash = try #require(ChainDigest(bytes: (0..<32).map { UInt8($0) }))
        for _ in 0..<2_000 {
            let record = Self.randomRecord(next)
            let bytes: [UInt8] = try record.serializedBytes()
            let mine = try #require(Self.decoded(bytes, hash: hash))
            #expect(mine == Self.reference(bytes, hash: hash))
            #expect(try mine.payload == record.payload)
            #expect(mine.observedAt == (record.hasObservedAtUs ? Timestamp(microseconds: record.observedAtUs) : nil))
        }
    }

    @Test("fields in any order, repeated fields and unknown fields and groups mean what protobuf says")
    func wireFlexibility() throws {
        let next = Self.generator(seed: 2)
        let hash = try #require(ChainDigest(bytes: [UInt8](repeating: 7, count: 32)))
        for _ in 0..<500 {
            let first: [UInt8] = try Self.randomRecord(next).serializedBytes()
            let second: [UInt8] = try Self.randomRecord(next).serializedBytes()
            // Unknown field 99 as a varint, 100 as fixed64, 101 as bytes, 102 as fixed32, 103 as a group holding a varint.
            let unknown: [UInt8] = [0x98, 0x06, 0x2A] + [0xA1, 0x06] + [UInt8](repeating: 1, count: 8)
                + [0xAA, 0x06, 0x02, 0xFF, 0xFE] + [0xB5, 0x06, 1, 2, 3, 4] + [0xBB, 0x06, 0x08, 0x01, 0xBC, 0x06]
            for bytes in [first + second, unknown + first, second + unknown + first] {
                let mine = try #require(Self.decoded(bytes, hash: hash))
                #expect(mine == Self.reference(bytes, hash: hash))
            }
        }
    }

    @Test("damaged records are refused exactly when SwiftProtobuf refuses them, and never crash the reader")
    func damagedRecords() throws {
        let next = Self.generator(seed: 3)
        let hash = ChainDigest.genesis
        var refused = 0
        for round in 0..<3_000 {
            var bytes: [UInt8] = try Self.randomRecord(next).serializedBytes()
            if round % 2 == 0 {
                bytes = Array(bytes.prefix(Int(next() % UInt64(bytes.count + 1))))
            } else {
                for _ in 0..<(1 + next() % 3) where !bytes.isEmpty {
                    bytes[Int(next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: next())
                }
            }
            let mine = Self.decoded(bytes, hash: hash)
            #expect(mine == Self.reference(bytes, hash: hash), "bytes: \(bytes)")
            if mine == nil { refused += 1 }
        }
        #expect(refused > 100)
    }

    @Test("a refused record names its problem")
    func reasons() {
        func reason(_ bytes: [UInt8]) -> String? {
            bytes.withUnsafeBytes { buffer -> String? in
                do {
                    _ = try EnvelopeDecoder.decode(buffer, hash: .genesis)
                    return nil
                } catch let failure as ProtoWireReader.Failure {
                    return failure.reason
                } catch {
                    return "\(error)"
                }
            }
        }
        #expect(reason([0x0A, 0x03, 1, 2, 3]) == "the event id is 3 bytes, not 16")
        #expect(reason([0x12, 0x05, 0x61]) == "a field of 5 bytes runs past the end")
        #expect(reason([0x18, 0xFF]) == "the bytes end inside a varint")
        #expect(reason([0x12, 0x01, 0xFF]) == "stream_id is not valid UTF-8")
        #expect(reason([0x1F]) == "field 3 has wire type 7, which no field may have here")
        #expect(reason([]) == "the event id is 0 bytes, not 16")
    }
}
