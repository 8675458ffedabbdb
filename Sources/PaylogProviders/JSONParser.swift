import Foundation

/// A JSON (RFC 8259) reader over UTF-8 bytes, producing ``JSONValue``s: the hot path of `paylog ingest`,
/// which reads one JSON object per input line and one more from every Square `data` parameter.
///
/// Foundation's readers cost most of the parsing thread there: `JSONSerialization` builds an `NSDictionary` of
/// `Any` per line, and decoding ``JSONValue`` with `JSONDecoder` tries each kind of value in turn, throwing an
/// error for every miss. This reader accepts exactly the texts they accept — JSON, plus one trailing comma in an
/// object or array, which they allow too (checked against them on generated, damaged and hand-picked input in
/// `JSONParserTests`) — and reads numbers the way ``JSONValue/Numbers`` says.
struct JSONParser {
    /// Why a text is not JSON, with the byte offset where reading stopped.
    struct Failure: Error, Equatable {
        /// The byte offset in the text.
        var offset: Int
        /// What was wrong there.
        var reason: String
    }

    /// Nesting deeper than this is refused (Foundation's readers refuse past 512 too), so a hostile line cannot
    /// exhaust the stack.
    static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private let numbers: JSONValue.Numbers
    private let duplicateKeys: JSONValue.DuplicateKeys
    private var index = 0
    private var depth = 0
    /// Above 0 while reading a value that is thrown away (a later duplicate key's, when the first wins).
    private var ignoring = 0
    /// Whether ``duplicates`` and ``rawMembers`` are gathered (``parseNoting(_:)``): off on the ingest hot path.
    private var notes = false
    /// The keys leading to the value being read, while ``notes`` is on.
    private var path: [String] = []
    /// Every key met again in one object, in text order, while ``notes`` is on.
    private var duplicates: [JSONValue.DuplicateKey] = []
    /// The text, as written, of each member of the outermost object whose value is not a string, while ``notes`` is on.
    private var rawMembers: [String: String] = [:]

    private init(_ bytes: UnsafeBufferPointer<UInt8>, numbers: JSONValue.Numbers, duplicateKeys: JSONValue.DuplicateKeys) {
        self.bytes = bytes
        self.numbers = numbers
        self.duplicateKeys = duplicateKeys
    }

    /// Reads `text` as one JSON value, surrounded by nothing but JSON whitespace.
    static func parse(
        _ text: String, numbers: JSONValue.Numbers, duplicateKeys: JSONValue.DuplicateKeys
    ) throws(Failure) -> JSONValue {
        var text = text
        // `withUTF8` rethrows untyped errors: carry the typed one out in a Result.
        let result = text.withUTF8 { buffer in
            Result { () throws(Failure) -> JSONValue in
                var parser = JSONParser(buffer, numbers: numbers, duplicateKeys: duplicateKeys)
                parser.skipWhitespace()
                let value = try parser.value()
                parser.skipWhitespace()
                guard parser.index == buffer.count else { throw parser.failure("text after the JSON value") }
                return value
            }
        }
        return try result.get()
    }

    /// Reads `text` as ``parse(_:numbers:duplicateKeys:)`` does with ``JSONValue/Numbers/exact`` numbers and the first
    /// of duplicate keys kept, and notes what that value alone does not show: every key met again in one object
    /// (its dotted path, the value kept and the one dropped) and the text as written of each member of the outermost
    /// object whose value is not a string (`{"order":1}`, `1.0`, `true`).
    static func parseNoting(
        _ text: String
    ) throws(Failure) -> (value: JSONValue, duplicates: [JSONValue.DuplicateKey], rawMembers: [String: String]) {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(Failure) -> (JSONValue, [JSONValue.DuplicateKey], [String: String]) in
                var parser = JSONParser(buffer, numbers: .exact, duplicateKeys: .firstWins)
                parser.notes = true
                parser.skipWhitespace()
                let value = try parser.value()
                parser.skipWhitespace()
                guard parser.index == buffer.count else { throw parser.failure("text after the JSON value") }
                return (value, parser.duplicates, parser.rawMembers)
            }
        }
        return try result.get()
    }

    private func failure(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value() throws(Failure) -> JSONValue {
        guard let byte = current else { throw failure("the text ends where a value should be") }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("a value cannot start with \(Self.describe(byte))")
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        var matched = 0
        while matched < count, index + matched < bytes.count, bytes[index + matched] == word.utf8Start[matched] { matched += 1 }
        let wordByte = { (byte: UInt8) in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_")
        }
        // `nullx`, `true_id`: a word that only starts like the literal is a bare word too.
        if matched == count, index + count == bytes.count || !wordByte(bytes[index + count]) {
            index += count
            return
        }
        guard index + matched < bytes.count else { throw failure("the text ends inside \(word)") }
        // A line of CSV or plain text (`name,amount`) starts like `null`: say what is there, not what was hoped for.
        let bare = bytes[index...].prefix(while: wordByte).prefix(24)
        throw failure("the bare word \"\(String(decoding: bare, as: UTF8.self))\" where a value should be (JSON text is in "
            + "double quotes; the only bare words are true, false and null)")
    }

    private mutating func nest() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nested deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try nest()
        index += 1  // {
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object([:])
        }
        // Room for a provider payload's usual handful of members: grown from empty, the dictionary was rehashed
        // at 2, 4 and 8 members (a tenth of an ingest's parsing, `perf`, Docs/performance.md).
        var members = [String: JSONValue](minimumCapacity: 8)
        while true {
            guard current == UInt8(ascii: "\"") else { throw failure("an object's key must be a string") }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected : after an object's key") }
            index += 1
            skipWhitespace()
            if notes {
                try notedMember(key, into: &members)
            } else {
                switch duplicateKeys {
                case .lastWins:
                    members[key] = try value()
                case .firstWins where members[key] != nil:
                    // Read for its syntax only, like JSONDecoder, which never converts a value it does not keep.
                    ignoring += 1
                    _ = try value()
                    ignoring -= 1
                case .firstWins:
                    members[key] = try value()
                }
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                // A comma before the closing brace, as Foundation's readers allow.
                if current == UInt8(ascii: "}") {
                    index += 1
                    depth -= 1
                    return .object(members)
                }
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(members)
            default:
                throw failure("expected , or } in an object")
            }
        }
    }

    /// Reads the value of member `key` while ``notes`` is on: the first of duplicate keys is kept, a later one read
    /// in full (numbers are exact, so nothing is converted) and noted with its path.
    private mutating func notedMember(_ key: String, into members: inout [String: JSONValue]) throws(Failure) {
        let start = index
        path.append(key)
        let read = try value()
        if let kept = members[key] {
            duplicates.append(JSONValue.DuplicateKey(path: path.joined(separator: "."), kept: kept, dropped: read))
        } else {
            members[key] = read
            if path.count == 1, depth == 1, !read.isString {
                rawMembers[key] = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            }
        }
        path.removeLast()
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try nest()
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try value())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                // A comma before the closing bracket, as Foundation's readers allow.
                if current == UInt8(ascii: "]") {
                    index += 1
                    depth -= 1
                    return .array(elements)
                }
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default:
                throw failure("expected , or ] in an array")
            }
        }
    }

    /// A string from its opening quote; the text between quotes is taken as is up to the first escape.
    private mutating func string() throws(Failure) -> String {
        index += 1  // "
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw failure("a control character (\(Self.describe(byte))) inside a string") }
            index += 1
        }
        var scalars = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard let escaped = current else { break }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escaped)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try unicodeEscape()
                    scalars.append(contentsOf: String(Character(scalar)).utf8)
                default:
                    index -= 1
                    throw failure("an unknown escape \\\(Self.describe(escaped)) inside a string")
                }
            default:
                guard byte >= 0x20 else { throw failure("a control character (\(Self.describe(byte))) inside a string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw failure("the text ends inside a string")
    }

    /// The scalar of a `\u` escape (the `\u` already read), joining a surrogate pair.
    private mutating func unicodeEscape() throws(Failure) -> Unicode.Scalar {
        let first = try hexQuad()
        switch first {
        case 0xD800...0xDBFF:
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw failure("a high surrogate \\u\(String(first, radix: 16)) without its low surrogate")
            }
            index += 2
            let second = try hexQuad()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw failure("a high surrogate \\u\(String(first, radix: 16)) followed by \\u\(String(second, radix: 16))")
            }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
        case 0xDC00...0xDFFF:
            throw failure("a low surrogate \\u\(String(first, radix: 16)) without its high surrogate")
        default:
            return Unicode.Scalar(first)!
        }
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("the text ends inside a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("\(Self.describe(byte)) is not a hex digit of a \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// A number token, checked against the JSON grammar, then read as ``JSONValue/Numbers`` says.
    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, Self.isDigit(first) else { throw failure("a minus sign without digits") }
        index += 1
        if first == UInt8(ascii: "0") {
            if let next = current, Self.isDigit(next) { throw failure("a number with a leading zero") }
        } else {
            while let next = current, Self.isDigit(next) { index += 1 }
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let next = current, Self.isDigit(next) else { throw failure("a decimal point without digits after it") }
            while let next = current, Self.isDigit(next) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let next = current, Self.isDigit(next) else { throw failure("an exponent without digits") }
            while let next = current, Self.isDigit(next) { index += 1 }
        }
        let token = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if ignoring > 0 { return .null }
        if isInteger, let integer = Self.int64(token) { return .integer(integer) }
        let text = String(decoding: token, as: UTF8.self)
        switch numbers {
        case .exact:
            return .number(text)
        case .asJSONDecoder:
            // Rare (Square's amounts are integers): read the token as `JSONDecoder` reads a number into a
            // ``JSONValue``, so fractions, exponents and huge integers come out exactly as they always did.
            guard let value = JSONValue.decodedByFoundation(number: text) else {
                throw Failure(offset: start, reason: "the number \(text) cannot be read")
            }
            return value
        }
    }

    /// A plain integer token's value, or nil when it does not fit in `Int64`.
    private static func int64(_ token: UnsafeBufferPointer<UInt8>) -> Int64? {
        var negative = false
        var digits = token[...]
        if digits.first == UInt8(ascii: "-") {
            negative = true
            digits = digits.dropFirst()
        }
        var magnitude: UInt64 = 0
        for byte in digits {
            let (shifted, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (added, overflow2) = shifted.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            magnitude = added
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }
}
