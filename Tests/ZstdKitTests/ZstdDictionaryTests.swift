import Foundation
import Testing
import ZstdKit

/// Round trips through ``ZstdCompressor`` and ``ZstdDictionary``, with and without a dictionary, and the refusals.
@Suite("zstd dictionary compression")
struct ZstdDictionaryTests {
    /// A record shaped like paylog's evidence: a URL that repeats most of its text from record to record.
    static func record(_ index: Int) -> [UInt8] {
        Array("square-commerce-v1://payment/create?data=%7B%22amount_money%22%3A%7B%22amount%22%3A\(1_000 + index * 7)%2C%22currency_code%22%3A%22USD%22%7D%2C%22callback_url%22%3A%22myshop%3A%2F%2Fcallback%3Fpayment%3Dpay-\(index)%22%7D".utf8)
    }

    /// A raw-content dictionary (zstd accepts any bytes as one): the shape the records share.
    static let dictionary = Array(String(repeating: "square-commerce-v1://payment/create?data=%7B%22amount_money%22%3A%7B%22amount%22%3A%2C%22currency_code%22%3A%22USD%22%7D%2C%22callback_url%22%3A%22myshop%3A%2F%2Fcallback%3Fpayment%3Dpay-", count: 2).utf8)

    private func roundTrip(_ dictionary: ZstdDictionary) throws -> (input: Int, output: Int) {
        let compressor = try ZstdCompressor(dictionary: dictionary)
        var input = 0
        var output = 0
        for index in 0..<50 {
            let record = Self.record(index)
            let frame = record.withUnsafeBytes { raw in compressor.compress(raw, minimumSaving: 1) { Data($0) } }
            let kept = try #require(frame, "record \(index) did not compress")
            #expect(kept.withUnsafeBytes { ZstdDictionary.contentSize(of: $0) } == record.count)
            let back = try kept.withUnsafeBytes { try dictionary.decompress($0) }
            #expect(Array(back) == record)
            input += record.count
            output += kept.count
        }
        return (input, output)
    }

    @Test("frames decompress to the exact input, with and without a dictionary; the dictionary makes them smaller")
    func roundTrips() throws {
        let plain = try roundTrip(try ZstdDictionary(bytes: []))
        let primed = try roundTrip(try ZstdDictionary(bytes: Self.dictionary))
        #expect(plain.output < plain.input)
        #expect(primed.output * 2 < plain.output, "a dictionary holding the shared text halves the frames: \(primed) vs \(plain)")
    }

    /// The type of the literals section of `frame`'s first block (0 raw, 1 RLE, 2 Huffman-compressed, 3 treeless;
    /// RFC 8878 §3.1.1), nil when that block is not a compressed block.
    static func literalsType(of frame: [UInt8]) -> UInt8? {
        let descriptor = frame[4]
        let singleSegment = descriptor & 0x20 != 0
        var offset = 5 + (singleSegment ? 0 : 1) + [0, 1, 2, 4][Int(descriptor & 0x03)]
        offset += [singleSegment ? 1 : 0, 2, 4, 8][Int(descriptor >> 6)]
        guard (frame[offset] >> 1) & 0x03 == 2 else { return nil }
        return frame[offset + 3] & 0x03
    }

    @Test("frames keep their literals raw, not Huffman-coded (faster to decode), even where Huffman would save bytes")
    func rawLiterals() throws {
        let compressor = try ZstdCompressor(dictionary: try ZstdDictionary(bytes: []))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            // Matches (the repeated run) and literals from a 16-letter alphabet, which Huffman coding would shrink.
            let literals = (0..<300).map { _ in UInt8.random(in: 97...112, using: &generator) }
            let input = Array(String(repeating: "callback_url=", count: 8).utf8) + literals
            let frame = try #require(input.withUnsafeBytes { compressor.compress($0, minimumSaving: 1) { Array($0) } })
            #expect(Self.literalsType(of: frame) == 0, "the first block's literals are of type \(String(describing: Self.literalsType(of: frame)))")
            #expect(Array(try frame.withUnsafeBytes { try compressor.dictionary.decompress($0) }) == input)
        }
    }

    @Test("input that would not save enough is left alone; body is not called")
    func incompressible() throws {
        let compressor = try ZstdCompressor(dictionary: try ZstdDictionary(bytes: []))
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<200).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var called = false
        let result: Int? = noise.withUnsafeBytes { raw in compressor.compress(raw, minimumSaving: 4) { called = true; return $0.count } }
        #expect(result == nil)
        #expect(!called)
        let repeated = [UInt8](repeating: 7, count: 300)
        let small = repeated.withUnsafeBytes { raw in compressor.compress(raw, minimumSaving: 4) { $0.count } }
        #expect(try #require(small) < 30)
    }

    @Test("a frame is kept exactly when it saves at least minimumSaving bytes, and is the same frame whatever it asks")
    func savingBoundary() throws {
        let dictionary = try ZstdDictionary(bytes: Self.dictionary)
        let compressor = try ZstdCompressor(dictionary: dictionary)
        for index in [0, 17, 400] {
            let record = Self.record(index)
            let frame = try #require(record.withUnsafeBytes { raw in compressor.compress(raw, minimumSaving: 1) { Array($0) } })
            let saving = record.count - frame.count
            #expect(saving > 1)
            // Asking for exactly the saving the frame has keeps it, byte for byte; one byte more refuses it.
            let atBoundary = record.withUnsafeBytes { raw in compressor.compress(raw, minimumSaving: saving) { Array($0) } }
            #expect(atBoundary == frame)
            var called = false
            let over = record.withUnsafeBytes { raw in
                compressor.compress(raw, minimumSaving: saving + 1) { called = true; return Array($0) }
            }
            #expect(over == nil)
            #expect(!called)
            #expect(Array(try frame.withUnsafeBytes { try dictionary.decompress($0) }) == record)
        }
    }

    @Test("a damaged or foreign frame is refused with a reason, never decoded into wrong bytes")
    func damagedFrames() throws {
        let dictionary = try ZstdDictionary(bytes: Self.dictionary)
        let compressor = try ZstdCompressor(dictionary: dictionary)
        let record = Self.record(3)
        let frame = try #require(record.withUnsafeBytes { raw in compressor.compress(raw, minimumSaving: 1) { Array($0) } })
        // Without the dictionary it was compressed with, the frame cannot be read.
        #expect(throws: ZstdError.self) { try frame.withUnsafeBytes { try ZstdDictionary(bytes: []).decompress($0) } }
        // Cut short.
        #expect(throws: ZstdError.self) { try frame.dropLast(3).withUnsafeBytes { try dictionary.decompress($0) } }
        // A header that is not zstd's.
        var garbled = frame
        garbled[0] ^= 0xff
        #expect(throws: ZstdError.self) { try garbled.withUnsafeBytes { try dictionary.decompress($0) } }
        #expect(garbled.withUnsafeBytes { ZstdDictionary.contentSize(of: $0) } == nil)
    }

    @Test("a header claiming more than its frame can hold is refused before anything is allocated")
    func impossibleContentSize() throws {
        // Magic, a header with an 8-byte content size of 2^40 (single segment), one empty last raw block.
        let frame: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0xE0, 0, 0, 0, 0, 0, 1, 0, 0, 0x01, 0, 0]
        #expect(frame.withUnsafeBytes { ZstdDictionary.contentSize(of: $0) } == 1 << 40)
        #expect {
            try frame.withUnsafeBytes { try ZstdDictionary(bytes: []).decompress($0) }
        } throws: { error in
            guard case .damagedFrame(let reason) = error as? ZstdError else { return false }
            return reason.contains("declares 1099511627776 bytes")
        }
    }

    @Test("decompressing into a reused buffer gives the same bytes, grows the buffer when needed, refuses what the other refuses")
    func reusedBuffer() throws {
        let dictionary = try ZstdDictionary(bytes: Self.dictionary)
        let compressor = try ZstdCompressor(dictionary: dictionary)
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 16)
        defer { buffer.deallocate() }
        // Records of growing and shrinking sizes: each read into the one buffer must be exactly its own bytes,
        // never a tail left over from a longer one.
        let records = [Self.record(1), Self.record(5) + Self.record(6) + Self.record(7), Self.record(2), [UInt8](repeating: 9, count: 5_000), Self.record(3)]
        for record in records {
            let frame = try #require(record.withUnsafeBytes { raw in compressor.compress(raw, minimumSaving: 1) { Array($0) } })
            let read = try frame.withUnsafeBytes { try Array(dictionary.decompress($0, reusing: &buffer)) }
            #expect(read == record)
            #expect(read == Array(try frame.withUnsafeBytes { try dictionary.decompress($0) }))
            #expect(buffer.count >= record.count)
        }
        #expect(buffer.count >= 5_000)
        let frame = try #require(Self.record(4).withUnsafeBytes { raw in compressor.compress(raw, minimumSaving: 1) { Array($0) } })
        var garbled = frame
        garbled[0] ^= 0xff
        for damaged in [Array(frame.dropLast(3)), garbled] {
            #expect(throws: ZstdError.self) { try damaged.withUnsafeBytes { _ = try dictionary.decompress($0, reusing: &buffer) } }
        }
        #expect(throws: ZstdError.self) { try frame.withUnsafeBytes { _ = try ZstdDictionary(bytes: []).decompress($0, reusing: &buffer) } }
    }

    @Test("decompression from many tasks at once shares the dictionary safely")
    func concurrentReads() async throws {
        let dictionary = try ZstdDictionary(bytes: Self.dictionary)
        let compressor = try ZstdCompressor(dictionary: dictionary)
        let frames = (0..<64).map { index in
            Self.record(index).withUnsafeBytes { raw in compressor.compress(raw, minimumSaving: 1) { Data($0) }! }
        }
        let matches = try await withThrowingTaskGroup(of: Bool.self) { group in
            for (index, frame) in frames.enumerated() {
                group.addTask { try frame.withUnsafeBytes { try dictionary.decompress($0) } == Data(Self.record(index)) }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(matches == frames.count)
    }
}
