import Testing

@testable import PaylogStore

/// `ProtoWireReader.varint()` reads one-byte varints inline, varints of up to eight bytes as one word when eight
/// bytes are left, and everything else byte by byte: each path must read what protobuf writes, and refuse what it
/// refuses, wherever in the bytes the varint lies.
@Suite("Reading protobuf varints")
struct ProtoWireReaderTests {
    /// Every length from 1 to 10 bytes at its edges, and values with every other bit set.
    static let values: [UInt64] = (0...9).flatMap { length -> [UInt64] in
        let low: UInt64 = length == 0 ? 0 : 1 << UInt64(7 * length)
        let high: UInt64 = length == 9 ? .max : (1 << UInt64(7 * (length + 1))) - 1
        return [low, low + 1, high, high - 1, low | (high >> 1 & 0x5555_5555_5555_5555)]
    }

    /// `values` written as varints one after another, then `trailing` bytes with their top bit set.
    private static func bytes(_ values: [UInt64], trailing: Int) -> [UInt8] {
        var writer = ProtoWireWriter(capacity: 16)
        for value in values { writer.varint(value) }
        for index in 0..<trailing { writer.byte(UInt8(0x80 | index)) }
        return writer.bytes
    }

    /// Reads `count` varints from the first `prefix` bytes of `bytes` (all of them for nil): the values and the
    /// reader's offset after them, or the failure.
    private static func read(
        _ count: Int, from bytes: [UInt8], prefix: Int? = nil
    ) -> Result<(values: [UInt64], offset: Int), ProtoWireReader.Failure> {
        bytes.withUnsafeBytes { raw in
            var reader = ProtoWireReader(UnsafeRawBufferPointer(rebasing: raw[..<(prefix ?? raw.count)]))
            var values: [UInt64] = []
            do throws(ProtoWireReader.Failure) {
                for _ in 0..<count { values.append(try reader.varint()) }
            } catch {
                return .failure(error)
            }
            return .success((values, reader.offset))
        }
    }

    @Test("varints of every length read back, whether 0 to 9 bytes follow them", arguments: 0...9)
    func readsEveryLength(trailing: Int) throws {
        for value in Self.values {
            let written = Self.bytes([value], trailing: trailing)
            let read = try Self.read(1, from: written).get()
            #expect(read.values == [value], "\(value) followed by \(trailing) bytes")
            #expect(read.offset == written.count - trailing, "\(value): the varint's length")
        }
    }

    @Test("a run of varints of mixed lengths reads back in order")
    func readsRuns() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var values: [UInt64] = []
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(state >> (state & 63))
        }
        let written = Self.bytes(values, trailing: 0)
        let read = try Self.read(values.count, from: written).get()
        #expect(read.values == values)
        #expect(read.offset == written.count)
    }

    @Test("a tenth byte carries bit 63 only; an eleventh is refused, as SwiftProtobuf does")
    func overlongVarints() throws {
        let ten: [UInt8] = Array(repeating: 0xFF, count: 9) + [0x7F] + Array(repeating: 0, count: 8)
        #expect(try Self.read(1, from: ten).get().values == [.max])
        let eleven: [UInt8] = Array(repeating: 0x80, count: 10) + [0x01] + Array(repeating: 0, count: 8)
        #expect(throws: ProtoWireReader.Failure.self) { try Self.read(1, from: eleven).get() }
    }

    @Test("a varint cut short is refused at every length, and nothing past the reader's bytes is read")
    func truncatedVarints() {
        for length in 1...10 {
            let cut: [UInt8] = Array(repeating: 0x80, count: length)
            #expect(throws: ProtoWireReader.Failure.self, "\(length) bytes") { try Self.read(1, from: cut).get() }
            // The varint would end in the byte after the reader's slice: that byte must not be read.
            let padded: [UInt8] = cut + Array(repeating: 0x01, count: 9)
            #expect(throws: ProtoWireReader.Failure.self, "\(length) bytes in a longer buffer") {
                try Self.read(1, from: padded, prefix: length).get()
            }
            // With that byte, the varint is whole (at 10 bytes cut, it would be an eleventh byte: refused above).
            if length < 10 { #expect(throws: Never.self) { try Self.read(1, from: padded, prefix: length + 1).get() } }
        }
    }
}
