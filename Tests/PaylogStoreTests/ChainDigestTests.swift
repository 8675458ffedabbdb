import Crypto
import Foundation
import TestSupport
import Testing

@testable import PaylogStore

/// The inline chain hash: the same bytes, order, hexadecimal and equality as the `[UInt8]` it replaced.
@Suite("Chain digest")
struct ChainDigestTests {
    @Test("bytes go in and come out in order, and the hexadecimal is that of the bytes")
    func bytesAndHex() throws {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let digest = try #require(ChainDigest(bytes: bytes))
            #expect(digest.bytes == bytes)
            #expect(digest.hex == bytes.map { String(format: "%02x", $0) }.joined())
            let viaRaw = bytes.withUnsafeBytes { ChainDigest(unchecked: $0) }
            #expect(viaRaw == digest)
            #expect(bytes.withUnsafeBytes { digest.matches($0) })
        }
    }

    @Test("digests differing in any one byte are unequal, and hash apart in a set")
    func equality() throws {
        let base = [UInt8](repeating: 0xab, count: 32)
        let digest = try #require(ChainDigest(bytes: base))
        var seen: Set<ChainDigest> = [digest]
        for index in 0..<32 {
            var changed = base
            changed[index] ^= 0x01
            let other = try #require(ChainDigest(bytes: changed))
            #expect(other != digest)
            #expect(!changed.withUnsafeBytes { digest.matches($0) })
            seen.insert(other)
        }
        #expect(seen.count == 33)
    }

    @Test("only exactly 32 bytes make a digest")
    func refusesOtherLengths() {
        #expect(ChainDigest(bytes: [UInt8](repeating: 1, count: 31)) == nil)
        #expect(ChainDigest(bytes: [UInt8](repeating: 1, count: 33)) == nil)
        #expect(ChainDigest(bytes: []) == nil)
        #expect([UInt8](repeating: 0, count: 31).withUnsafeBytes { ChainDigest.genesis.matches($0) } == false)
    }

    @Test("the hexadecimal reads back as the digest, in either case")
    func hexRoundTrip() throws {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<200 {
            let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let digest = try #require(ChainDigest(bytes: bytes))
            #expect(ChainDigest(hex: digest.hex) == digest)
            #expect(ChainDigest(hex: digest.hex.uppercased()) == digest)
        }
        #expect(ChainDigest(hex: String(repeating: "0", count: 64)) == .genesis)
    }

    @Test("only 64 hexadecimal digits make a digest",
          arguments: ["", "0", String(repeating: "a", count: 63), String(repeating: "a", count: 65),
                      "+a" + String(repeating: "a", count: 62), " a" + String(repeating: "a", count: 62),
                      "g" + String(repeating: "a", count: 63), String(repeating: "a", count: 62) + "é",
                      String(repeating: "a", count: 63) + "\u{0}"])
    func hexRefusals(text: String) {
        #expect(ChainDigest(hex: text) == nil)
    }

    @Test("an export line whose hash is not 64 hexadecimal digits is refused, naming the field")
    func exportLineHash() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: dir.path)
        defer { store.close() }
        _ = try await store.append([NewEvent(id: UUID(), type: "Tick", payload: Data("p".utf8), actor: "test")], to: "pay-1")
        var line = try ExportLine(try #require(try store.readStream("pay-1").first))
        #expect(try line.recordedEvent().hash.hex == line.hash)
        line.hash = "+" + line.hash.dropFirst()
        #expect(throws: EventStoreError.importMismatch(position: 1, reason: "hash is not 64 hexadecimal digits")) {
            try line.recordedEvent()
        }
    }

    @Test("genesis is 32 zero bytes, and a SHA-256 digest keeps its bytes")
    func genesisAndSHA256() {
        #expect(ChainDigest.genesis.bytes == [UInt8](repeating: 0, count: 32))
        let sha = SHA256.hash(data: Data("paylog".utf8))
        #expect(ChainDigest(sha).bytes == Array(sha))
    }
}
