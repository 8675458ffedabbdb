import Foundation
import Testing
import TestSupport

@testable import PaylogPresentation

/// `JSONText.data` writes what `JSONSerialization` writes with sorted keys and unescaped slashes, byte for byte, by
/// `SortedJSONWriter` wherever it can (Docs/performance.md, *Status listings*).
@Suite("The sorted JSON writer writes JSONSerialization's bytes")
struct SortedJSONWriterTests {
    /// Characters keys and strings are made of: the cases where ICU's numeric, case-insensitive order and byte order
    /// part (digits against `_`, capitals, accents, dotted I, sharp s), escapes, slashes and characters beyond the BMP.
    static let alphabet: [String] = [
        "a", "b", "z", "A", "B", "Z", "0", "1", "2", "9", "10", "_", "-", ".", " ", "/", "\\", "\"", "é", "E", "ß", "ss",
        "İ", "i", "ı", "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}", "\u{C}", "\u{D}", "\u{1F}", "\u{7F}", "\u{2028}",
        "😀", "e\u{301}", "ﬁ", "日",
    ]

    static func text(_ generator: inout SeededGenerator, maximum: Int) -> String {
        (0..<Int.random(in: 0...maximum, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
    }

    static func value(_ generator: inout SeededGenerator, depth: Int) -> Any {
        switch Int.random(in: 0..<(depth > 2 ? 7 : 9), using: &generator) {
        case 0: return text(&generator, maximum: 12)
        case 1: return Bool.random(using: &generator)
        case 2: return [Int.min, Int.max, 0, -1, 1, Int.random(in: -1_000_000...1_000_000, using: &generator)].randomElement(using: &generator)!
        case 3: return Int64.random(in: .min ... .max, using: &generator)
        case 4: return UInt64.random(in: .min ... .max, using: &generator)
        case 5: return NSNull()
        case 6: return Int32.random(in: .min ... .max, using: &generator)
        case 7: return (0..<Int.random(in: 0...4, using: &generator)).map { _ in value(&generator, depth: depth + 1) }
        default: return object(&generator, depth: depth + 1)
        }
    }

    static func object(_ generator: inout SeededGenerator, depth: Int) -> [String: Any] {
        var object: [String: Any] = [:]
        for _ in 0..<Int.random(in: 0...12, using: &generator) {
            // Mostly ASCII keys (the fast writer's), sometimes any.
            let key = Int.random(in: 0..<8, using: &generator) == 0
                ? text(&generator, maximum: 6)
                : String(text(&generator, maximum: 6).unicodeScalars.filter(\.isASCII).map(Character.init))
            object[key] = value(&generator, depth: depth)
        }
        return object
    }

    /// Whether every dictionary key in `value` is ASCII.
    static func asciiKeys(_ value: Any) -> Bool {
        switch value {
        case let array as [Any]: return array.allSatisfy(asciiKeys)
        case let object as [String: Any]:
            return object.allSatisfy { key, value in key.utf8.allSatisfy { $0 < 0x80 } && asciiKeys(value) }
        default: return true
        }
    }

    @Test("random objects: the same bytes as JSONSerialization, by the fast writer wherever the keys are ASCII")
    func randomObjects() throws {
        var generator = SeededGenerator(seed: 46)
        var asciiRounds = 0
        for round in 0..<3_000 {
            let object: Any = round % 5 == 0
                ? (0..<3).map { _ in Self.object(&generator, depth: 1) } as [Any]
                : Self.object(&generator, depth: 0)
            let expected = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            #expect(try JSONText.data(object) == expected, "round \(round)")
            guard Self.asciiKeys(object) else {
                #expect(SortedJSONWriter.bytes(object) == nil, "round \(round): a key beyond ASCII is left to JSONSerialization")
                continue
            }
            asciiRounds += 1
            let fast = try #require(SortedJSONWriter.bytes(object), "round \(round) fell back")
            let first = zip(fast, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(fast.count, expected.count)
            let window = { (bytes: [UInt8]) in bytes[max(0, first - 12)..<min(bytes.count, first + 12)].map { String(format: "%02x", $0) }.joined(separator: " ") }
            #expect(Data(fast) == expected, "round \(round) at byte \(first): \(window(fast)) against \(window(Array(expected)))")
        }
        #expect(asciiRounds > 1_000, "most rounds go through the fast writer")
    }

    @Test("keys that ICU orders apart from their bytes are written in JSONSerialization's order")
    func icuOrder() throws {
        let object: [String: Any] = ["a10": 1, "a9": 2, "a_b": 3, "a1": 4, "B": 5, "a": 6, "A": 7, "é": 8, "f": 9, "Z": 10]
        let expected = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        #expect(try JSONText.data(object) == expected)
        // Numeric order: a9 before a10, which byte order would put first.
        let text = String(decoding: expected, as: UTF8.self)
        let a9 = try #require(text.range(of: "\"a9\""))
        let a10 = try #require(text.range(of: "\"a10\""))
        #expect(a9.lowerBound < a10.lowerBound)
    }

    @Test("what the fast writer leaves alone is written by JSONSerialization, refusals included",
          arguments: [0, 1, 2])
    func fallBack(kind: Int) throws {
        let object: Any = [["amount": 12.5], ["ratio": Float(0.25)], ["n": UInt8(7)]][kind]
        #expect(SortedJSONWriter.bytes(object) == nil)
        #expect(try JSONText.data(object) == JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
        // JSONSerialization stops the process on a fragment at the top, so that stays its to do, as before.
        #expect(SortedJSONWriter.bytes("a bare string") == nil)
    }
}
