import Foundation
import TestSupport
import Testing

@testable import PaylogStore

/// ``FoldEvent``, the envelope a rebuild folds by, read in place: held to ``RecordCodec/decode(_:position:dictionaries:decompress:)``,
/// the full decode every other reader uses.
@Suite("Fold events")
struct FoldEventTests {
    /// Stored values of `count` events in the layout the writer uses, with payloads long enough to be compressed
    /// with `dictionaries`' current dictionary and short ones stored as given.
    private static func storedValues(_ count: Int, dictionaries: PayloadDictionaries) -> [(position: UInt64, value: [UInt8])] {
        let types = ["Requested", "AppSwitched", "CallbackReceived", "X", ""]
        var previous = ChainDigest.genesis
        return (0..<count).map { index in
            let payload: Data
            switch index % 4 {
            case 0: payload = PayloadCompressionTests.evidence(index)
            case 1: payload = Data("short \(index)".utf8)
            case 2: payload = Data()
            default: payload = PayloadCompressionTests.evidence(index) + PayloadCompressionTests.evidence(index + 1)
            }
            let event = NewEvent(
                id: UUID(), type: types[index % types.count], schemaVersion: UInt32(index % 3), payload: payload,
                observedAt: index % 2 == 0 ? Timestamp(microseconds: 1_700_000_000_000_000 + Int64(index)) : nil,
                correlationID: index % 3 == 0 ? "corr-\(index)" : "", causationID: "", actor: index % 5 == 0 ? "" : "clerk é")
            let position = UInt64(index + 1)
            let (value, hash) = RecordCodec.storedValue(
                event, streamID: "pay-\(index % 7)-ü", version: UInt64(index / 7 + 1), position: position,
                recordedAt: Timestamp(microseconds: 1_800_000_000_000_000 + Int64(index)), previous: previous,
                dictionaries: dictionaries)
            previous = hash
            return (position, value)
        }
    }

    /// The fields a fold reads, from a fold event and from a full decode, side by side.
    private static func expectSameEnvelope(_ fold: FoldEvent, _ recorded: RecordedEvent) throws {
        #expect(fold.streamID == recorded.streamID)
        #expect(fold.version == recorded.version && fold.position == recorded.position)
        #expect(fold.type == recorded.type)
        #expect(fold.schemaVersion == recorded.schemaVersion)
        #expect(fold.recordedAt == recorded.recordedAt && fold.observedAt == recorded.observedAt)
        #expect(try fold.recorded() == recorded)
    }

    @Test("every field a fold reads is what a full decode reads, and the payload the same bytes, plain or compressed")
    func sameAsFullDecode() throws {
        let dictionaries = try PayloadDictionaries.inMemory([1: PayloadCompressionTests.first], current: 1)
        let scratch = FoldScratch(capacity: 8)
        let values = Self.storedValues(60, dictionaries: dictionaries)
        #expect(values.contains { $0.value[0] == StoreKeys.compressedRecordFormatByte })
        #expect(values.contains { $0.value[0] == StoreKeys.recordFormatByte })
        for (position, value) in values {
            let recorded = try value.withUnsafeBytes { try RecordCodec.decode($0, position: position, dictionaries: dictionaries) }
            try value.withUnsafeBytes { raw in
                let fold = try FoldEvent(raw, position: position, dictionaries: dictionaries, scratch: scratch)
                try Self.expectSameEnvelope(fold, recorded)
                // One scratch buffer serves every event: each payload must still be exactly its own.
                #expect(Data(try fold.payload()) == (try recorded.payload))
                #expect(fold.hasType("Requested") == (recorded.type == "Requested"))
                #expect(fold.hasType("") == recorded.type.isEmpty)
                #expect(!fold.hasType("Requeste"))
                let name: StaticString = "CallbackReceived"
                #expect(fold.hasType(name) == (recorded.type == "CallbackReceived"))
                #expect(fold.hasType("" as StaticString) == recorded.type.isEmpty)
                #expect(fold.typeByteCount == recorded.type.utf8.count)
            }
        }
        #expect(scratch.buffer.count > 8)
    }

    @Test("a record cut anywhere reads as a fold exactly when it reads in full, with the same fields")
    func truncatedRecords() throws {
        let dictionaries = try PayloadDictionaries.inMemory([1: PayloadCompressionTests.first], current: 1)
        let scratch = FoldScratch()
        var refused = 0
        for (position, value) in Self.storedValues(4, dictionaries: dictionaries) {
            for length in 0..<value.count {
                let cut = Array(value[..<length])
                let recorded = try? cut.withUnsafeBytes { try RecordCodec.decode($0, position: position, dictionaries: dictionaries) }
                try cut.withUnsafeBytes { raw in
                    let fold = try? FoldEvent(raw, position: position, dictionaries: dictionaries, scratch: scratch)
                    #expect((fold == nil) == (recorded == nil), "position \(position) cut to \(length) of \(value.count) bytes")
                    if let fold, let recorded { try Self.expectSameEnvelope(fold, recorded) }
                }
                if recorded == nil { refused += 1 }
            }
        }
        #expect(refused > 0)
    }

    @Test("an unknown format byte, a damaged frame and a dictionary the store lacks are named with the event's position")
    func damage() throws {
        let dictionaries = try PayloadDictionaries.inMemory([1: PayloadCompressionTests.first], current: 1)
        let scratch = FoldScratch()
        let (position, value) = try #require(Self.storedValues(1, dictionaries: dictionaries).first)
        #expect(value[0] == StoreKeys.compressedRecordFormatByte)
        func refusal(_ bytes: [UInt8], payload: Bool = false) -> String? {
            bytes.withUnsafeBytes { raw -> String? in
                do throws(EventStoreError) {
                    let fold = try FoldEvent(raw, position: position, dictionaries: dictionaries, scratch: scratch)
                    if payload { _ = try fold.payload() }
                    return nil
                } catch {
                    guard case .corruptRecord(let at, let reason) = error, at == position else { return "wrong error \(error)" }
                    return reason
                }
            }
        }
        var format = value
        format[0] = 9
        #expect(refusal(format)?.contains("unknown record format byte 9") == true)
        // The frame's magic number garbled: the envelope reads, the payload does not.
        let record = try PayloadCompressionTests.record(value)
        var garbled = value
        let start = try #require(garbled.firstRange(of: Array(record.payloadZstd))).lowerBound
        garbled[start] ^= 0xff
        #expect(refusal(garbled) == nil)
        #expect(refusal(garbled, payload: true)?.contains("compressed payload is damaged") == true)
        // Read with dictionaries that lack number 1.
        let bare = try PayloadDictionaries.plain()
        let lacking = value.withUnsafeBytes { raw in
            Result { () throws(EventStoreError) in try FoldEvent(raw, position: position, dictionaries: bare, scratch: scratch) }
        }
        guard case .failure(.corruptRecord(position, let reason)) = lacking else {
            Issue.record("a frame of dictionary 1 read without it")
            return
        }
        #expect(reason.contains("dictionary 1"))
    }
}
