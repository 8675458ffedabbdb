import TestSupport
import Testing

@testable import PaylogStore

/// The sizing pass behind records reserved in LMDB pages must count exactly what the writers write, or a record
/// would trap (too large for its page) or leave garbage bytes (too small).
@Suite("Sizing and writing wire bytes in place")
struct WireSinkTests {
    static let boundaries: [UInt64] = [0, 1, 127, 128, 16_383, 16_384, 1 << 21 - 1, 1 << 21, 1 << 35, 1 << 49, 1 << 56 - 1, 1 << 56, 1 << 63 - 1, 1 << 63, .max]

    @Test("a varint's counted size is the number of bytes ProtoWireWriter writes for it, at every length boundary")
    func varintSizes() {
        for value in Self.boundaries {
            var writer = ProtoWireWriter(capacity: 10)
            writer.varint(value)
            #expect(WireSizer.varintSize(value) == writer.bytes.count, "varint \(value)")
        }
    }

    @Test("the span writer writes the same bytes as ProtoWireWriter, and the sizer counts them")
    func spanWriterMatchesArrayWriter() {
        var reference = ProtoWireWriter(capacity: 256)
        var sizer = WireSizer()
        for value in Self.boundaries {
            reference.varint(value)
            sizer.varint(value)
        }
        for text in ["", "pay-0001", "café 🧾", String(repeating: "x", count: 300)] {
            reference.string(text)
            sizer.string(text)
        }
        #expect(sizer.count == reference.bytes.count)
        let written = [UInt8](unsafeUninitializedCapacity: sizer.count) { buffer, initialized in
            var writer = WireSpanWriter(UnsafeMutableRawBufferPointer(buffer))
            for value in Self.boundaries { writer.varint(value) }
            for text in ["", "pay-0001", "café 🧾", String(repeating: "x", count: 300)] { writer.string(text) }
            initialized = writer.count
        }
        #expect(written == reference.bytes)
    }

    @Test("a record's reserved size is the length of the value written into it")
    func storedSizeMatchesValue() throws {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            let (event, streamID, version, position, recordedAt) = RecordCodecTests.envelope(&generator)
            let size = RecordCodec.storedSize(
                event, streamID: streamID, version: version, position: position, recordedAt: recordedAt, compressed: nil)
            let reference = try RecordCodecTests.reference(
                event, streamID: streamID, version: version, position: position, recordedAt: recordedAt)
            #expect(size == RecordCodec.headerSize + reference.count)
        }
    }
}
