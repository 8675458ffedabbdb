import Testing

@testable import PaylogStore

/// A read loop's interned type and actor names must give back exactly the string of the bytes read — never the
/// string of other bytes that happen to share a prefix, a suffix or a length — and refuse bytes that are not UTF-8.
@Suite("Interned names")
struct InternedNamesTests {
    private static func name(_ text: [UInt8], _ names: inout InternedNames) -> String? {
        text.withUnsafeBytes { names.name($0) }
    }

    @Test("every name of 0 to 20 bytes, and every one-byte change of it, reads as its own string", arguments: 0...20)
    func distinctBytesDistinctNames(length: Int) {
        var names = InternedNames()
        let base = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        // Seen twice: the second reading is the interned one.
        for _ in 0..<2 {
            #expect(Self.name(base, &names) == String(decoding: base, as: UTF8.self))
            for index in 0..<length {
                var changed = base
                changed[index] = UInt8(ascii: "Z")
                #expect(Self.name(changed, &names) == String(decoding: changed, as: UTF8.self), "byte \(index) of \(length)")
            }
            // One byte more or fewer, padded with what zero-padding would hide.
            #expect(Self.name(base + [0], &names) == String(decoding: base + [0], as: UTF8.self))
            if length > 0 {
                #expect(Self.name(Array(base.dropLast()), &names) == String(decoding: base.dropLast(), as: UTF8.self))
            }
        }
    }

    @Test("names beyond the kept ones, long names and non-ASCII names are still read exactly")
    func beyondCapacity() {
        var names = InternedNames()
        let texts = (0..<(InternedNames.capacity * 2)).map { "Type\($0)" }
            + ["CallbackReceived", "ReconciliationLineMatched", "Rückbuchung", "支付回调"]
        for _ in 0..<3 {
            for text in texts { #expect(Self.name(Array(text.utf8), &names) == text) }
        }
    }

    @Test("bytes that are not UTF-8 are refused, whether or not a valid name of the same length was kept")
    func invalidUTF8() {
        var names = InternedNames()
        #expect(Self.name(Array("ab".utf8), &names) == "ab")
        #expect(Self.name([0xC3, 0x28], &names) == nil)
        #expect(Self.name([0xFF], &names) == nil)
        #expect(Self.name(Array(repeating: 0x80, count: 16), &names) == nil)
        #expect(Self.name(Array("ab".utf8), &names) == "ab")
    }
}
