import Foundation
import Testing
import TestSupport

@testable import PaylogProviders

/// The JSON reader of ingest lines and Square `data`, checked against Foundation's two readers it replaced.
@Suite("JSON reader")
struct JSONParserTests {
    /// What `JSONDecoder` makes of `text` as a ``JSONValue`` object: the reference for ``JSONValue/Numbers/asJSONDecoder``.
    static func byDecoder(_ text: String) -> [String: JSONValue]? {
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { return nil }
        return object
    }

    /// Whether `JSONSerialization` reads `text` as an object: the reference for acceptance with duplicate keys'
    /// last value winning.
    static func bySerialization(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    /// A random JSON value written as text, with random whitespace, escapes, and number forms.
    static func randomJSON(_ generator: inout SeededGenerator, depth: Int = 0) -> String {
        func space() -> String { ["", "", " ", "\n", "\t ", "\r\n"].randomElement(using: &generator)! }
        let kind = depth > 3 ? Int.random(in: 0..<5, using: &generator) : Int.random(in: 0..<7, using: &generator)
        switch kind {
        case 0: return ["true", "false", "null"].randomElement(using: &generator)!
        case 1:
            return [
                "0", "-0", "7", "-12", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
                "99999999999999999999", "12.0", "12.50", "1.5", "-0.25", "1e2", "1E+2", "2.5e-3", "0.1e1", "-1.0e-0",
                String(Int64.random(in: .min ... .max, using: &generator)),
            ].randomElement(using: &generator)!
        case 2, 3, 4: return randomString(&generator)
        case 5:
            let count = Int.random(in: 0..<4, using: &generator)
            let elements = (0..<count).map { _ in space() + randomJSON(&generator, depth: depth + 1) + space() }
            return "[" + elements.joined(separator: ",") + "]"
        default:
            let count = Int.random(in: 0..<5, using: &generator)
            let members = (0..<count).map { _ in
                space() + randomString(&generator, short: true) + space() + ":" + space()
                    + randomJSON(&generator, depth: depth + 1) + space()
            }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    /// A JSON string literal mixing plain text, every escape, non-ASCII text and surrogate pairs.
    static func randomString(_ generator: inout SeededGenerator, short: Bool = false) -> String {
        let pieces = [
            "a", "b", "amount", "state", " ", "é", "日本", "😀", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r",
            "\\t", "\\u00e9", "\\u0041", "\\u0000", "\\ud83d\\ude00", "\\uD834\\uDD1E", "%7B", "+", "&",
        ]
        let count = Int.random(in: 0..<(short ? 3 : 8), using: &generator)
        return "\"" + (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined() + "\""
    }

    @Test("3,000 random objects read exactly as JSONDecoder reads them (numbers, first of duplicate keys)")
    func sameAsJSONDecoder() throws {
        var generator = SeededGenerator(seed: 11)
        var read = 0
        for _ in 0..<3_000 {
            var text = Self.randomJSON(&generator)
            if !text.hasPrefix("{") { text = "{\"value\":" + text + ",\"value\":1}" }
            let expected = Self.byDecoder(text)
            #expect(expected != nil, "\(text)")
            #expect(JSONValue.object(from: text) == expected, "\(text)")
            #expect(JSONValue.notedObject(from: text)?.object == expected, "\(text)")
            if expected != nil { read += 1 }
        }
        #expect(read == 3_000)
    }

    @Test("3,000 random objects: `.exact` keeps every number's text, the last of duplicate keys wins, like JSONSerialization")
    func sameAsJSONSerialization() throws {
        var generator = SeededGenerator(seed: 12)
        for _ in 0..<3_000 {
            let inner = Self.randomJSON(&generator)
            let text = "{\"k\":" + inner + ",\"k\":" + inner + ",\"n\":" + Self.randomJSON(&generator, depth: 4) + "}"
            let object = try JSONValue.parseObject(text, numbers: .exact, duplicateKeys: .lastWins)
            let reference = try #require(Self.bySerialization(text), "\(text)")
            #expect(Set(object.keys) == Set(reference.keys))
            switch (object["n"], reference["n"]) {
            case (.string(let a)?, let b as String): #expect(a == b, "\(text)")
            case (.bool(let a)?, let b as NSNumber): #expect(String(cString: b.objCType) == "c" && a == b.boolValue, "\(text)")
            case (.integer(let a)?, let b as NSNumber):
                // One known difference: JSONSerialization reads negative integers of 19 digits as floating point
                // (an amount of minor units it refused is now read; no other integer changes).
                #expect((!"cdf".contains(String(cString: b.objCType)) || a <= -1_000_000_000_000_000_000) && a == b.int64Value, "\(text)")
            case (.number(let a)?, let b as NSNumber):
                // Not a plain integer fitting Int64: JSONSerialization reads it as a floating-point number.
                #expect("df".contains(String(cString: b.objCType)) || UInt64(a) != nil, "\(text)")
                #expect(Double(a) == b.doubleValue, "\(text)")
            case (.null?, is NSNull), (.array?, is [Any]), (.object?, is [String: Any]): break
            default: Issue.record("\(text): \(String(describing: object["n"])) against \(String(describing: reference["n"]))")
            }
        }
    }

    @Test("a number that is not a plain integer stays text with `.exact`, and reads as JSONDecoder does with `.asJSONDecoder`")
    func numbers() throws {
        let cases: [(String, JSONValue, JSONValue)] = [
            ("12", .integer(12), .integer(12)), ("-0", .integer(0), .integer(0)),
            ("12.0", .number("12.0"), .integer(12)), ("1e2", .number("1e2"), .integer(100)),
            ("12.50", .number("12.50"), .number("12.5")),
            ("9223372036854775807", .integer(.max), .integer(.max)),
            ("-9223372036854775808", .integer(.min), .integer(.min)),
            ("9223372036854775808", .number("9223372036854775808"), .number("9223372036854775808")),
        ]
        for (token, exact, decoder) in cases {
            #expect(try JSONValue.parseObject("{\"a\":\(token)}", numbers: .exact, duplicateKeys: .firstWins)["a"] == exact)
            #expect(JSONValue.object(from: "{\"a\":\(token)}")?["a"] == decoder)
            #expect(Self.byDecoder("{\"a\":\(token)}")?["a"] == decoder)
            // The literal is noted exactly where the reading differs from it.
            let noted = JSONValue.notedObject(from: "{\"a\":\(token)}")
            #expect(noted?.object["a"] == decoder)
            #expect(noted?.numberLiterals == (decoder == exact ? [:] : ["a": token]), "\(token)")
        }
    }

    @Test("a number read as something else is noted under its dotted path, in objects and arrays, and only there")
    func numberLiterals() throws {
        let text = #"{"amount_money":{"amount":500.0,"currency_code":"USD"},"list":[1,2.0,{"deep":5e2}],"plain":7,"n":1.5}"#
        let noted = try #require(JSONValue.notedObject(from: text))
        #expect(noted.object == JSONValue.object(from: text))
        #expect(noted.object["amount_money"]?["amount"] == .integer(500))
        #expect(noted.numberLiterals == ["amount_money.amount": "500.0", "list": "2.0", "list.deep": "5e2"])
        #expect(JSONValue.notedObject(from: #"{"a":1e999999}"#) == nil, "unreadable, as object(from:) refuses it")
        #expect(JSONValue.object(from: #"{"a":1e999999}"#) == nil)
    }

    @Test(
        "texts that are not JSON objects are refused, as Foundation's readers refuse them",
        arguments: [
            "", " ", "{", "}", "{\"a\"}", "{\"a\":}", "{\"a\" 1}", "{'a':1}", "{a:1}", "{\"a\":01}", "{\"a\":-}",
            "{\"a\":1.}", "{\"a\":.5}", "{\"a\":1e}", "{\"a\":1e+}", "{\"a\":+1}", "{,}", "{\"a\":1,,}", "{\"a\":[,]}", "{\"a\":[1,,]}",
            "{\"a\":[1 2]}", "{\"a\":tru}", "{\"a\":nul}", "{\"a\":True}", "{\"a\":NaN}", "{\"a\":Infinity}",
            "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"\\u12g4\"}", "{\"a\":\"\u{01}\"}", "{\"a\":\"tab\there\"}",
            "{\"a\":\"open}", "{\"a\":1} x", "{\"a\":1}{}", "[1]", "\"text\"", "12", "null", "{\"a\":1}//",
            "{\"a\":\"\\ud83d\"}", "{\"a\":\"\\ude00\"}", "{\"a\":\"\\ud83d\\u0041\"}", "{\u{00A0}}",
        ])
    func refused(_ text: String) {
        #expect(Self.byDecoder(text) == nil)
        #expect(Self.bySerialization(text) == nil)
        #expect(JSONValue.object(from: text) == nil)
        #expect(throws: JSONValue.ParseError.self) {
            try JSONValue.parseObject(text, numbers: .exact, duplicateKeys: .lastWins)
        }
    }

    @Test("2,000 damaged objects (a byte dropped, doubled or swapped): refused or read exactly as JSONDecoder refuses or reads them (or refused where JSONSerialization refuses them)")
    func damagedLikeJSONDecoder() {
        var generator = SeededGenerator(seed: 13)
        var refused = 0
        for _ in 0..<2_000 {
            var bytes = Array(("{\"a\":" + Self.randomJSON(&generator) + ",\"b\":[1,2.5,\"x\"]}").utf8)
            let at = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: bytes.remove(at: at)
            case 1: bytes.insert(bytes[at], at: at)
            default: bytes[at] = Array("{}[]:,\"\\ 0e.-tn".utf8).randomElement(using: &generator)!
            }
            guard let text = String(validating: bytes, as: UTF8.self) else { continue }
            let expected = Self.byDecoder(text)
            let read = JSONValue.object(from: text)
            #expect(JSONValue.notedObject(from: text)?.object == read, "\(text)")
            // JSONDecoder checks a number only when it is decoded, so a malformed number in a duplicate key's
            // ignored value passes it; JSONSerialization refuses such a text, and so does this reader.
            #expect(read == expected || (read == nil && Self.bySerialization(text) == nil), "\(text)")
            if read == nil { refused += 1 }
        }
        #expect(refused > 500)
    }

    @Test("an error says where and why; nesting is refused past 512 levels, not by exhausting the stack")
    func errorsAndDepth() throws {
        #expect {
            try JSONValue.parseObject("{\"amount\": 01}", numbers: .exact, duplicateKeys: .lastWins)
        } throws: { error in
            (error as? JSONValue.ParseError).map { $0.offset == 12 && $0.reason.contains("leading zero") } ?? false
        }
        #expect {
            try JSONValue.parseObject("[1]", numbers: .exact, duplicateKeys: .lastWins)
        } throws: { error in (error as? JSONValue.ParseError)?.reason == JSONValue.ParseError.notAnObject }
        let deep = "{\"a\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        #expect {
            try JSONValue.parseObject(deep, numbers: .exact, duplicateKeys: .lastWins)
        } throws: { error in (error as? JSONValue.ParseError)?.reason.contains("nested deeper than 512") ?? false }
        let fine = "{\"a\":" + String(repeating: "[", count: 500) + String(repeating: "]", count: 500) + "}"
        #expect(try JSONValue.parseObject(fine, numbers: .exact, duplicateKeys: .lastWins).count == 1)
    }

    @Test("a bare word is named as found (a CSV line reads as what it is), and a literal cut short as cut short")
    func bareWords() throws {
        for (text, reason) in [
            ("name,amount", "the bare word \"name\" where a value should be"),
            ("tx_1,12.50", "the bare word \"tx_1\" where a value should be"),
            (#"{"a": nope}"#, "the bare word \"nope\" where a value should be"),
            (#"{"a": FALSE}"#, "a value cannot start with"),
            (#"{"a": nu"#, "the text ends inside null"),
            (#"{"a": nullx}"#, "the bare word \"nullx\""),
            ("true_id,12.50", "the bare word \"true_id\""),
        ] {
            #expect {
                try JSONValue.parseObject(text, numbers: .exact, duplicateKeys: .lastWins)
            } throws: { error in
                (error as? JSONValue.ParseError)?.reason.contains(reason) ?? false
            }
        }
        #expect(try JSONValue.parseObject(#"{"a": null, "b": true, "c": false}"#, numbers: .exact, duplicateKeys: .lastWins).count == 3)
    }

    @Test("a trailing comma in an object or an array is allowed, as Foundation's readers allow it")
    func trailingComma() throws {
        let text = "{\"a\":[1,2,],\"b\":{\"c\":true,},}"
        #expect(Self.byDecoder(text) != nil && Self.bySerialization(text) != nil)
        #expect(JSONValue.object(from: text) == Self.byDecoder(text))
        #expect(try JSONValue.parseObject(text, numbers: .exact, duplicateKeys: .lastWins)["a"] == .array([.integer(1), .integer(2)]))
    }

    @Test("escapes, surrogate pairs and text outside ASCII read as written")
    func strings() throws {
        let object = try JSONValue.parseObject(
            #"{"e":"caf\u00e9 \"q\" \\ \/ \b\f\n\r\t","s":"\ud83d\ude00","raw":"日本 😀","empty":""}"#, numbers: .exact,
            duplicateKeys: .lastWins)
        #expect(object["e"] == .string("café \"q\" \\ / \u{08}\u{0C}\n\r\t"))
        #expect(object["s"] == .string("😀"))
        #expect(object["raw"] == .string("日本 😀"))
        #expect(object["empty"] == .string(""))
    }
}
