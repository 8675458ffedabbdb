import Foundation
import PaylogDomain

/// The JSON object carried in a Square URL's `data` item, and the URL's other query items.
///
/// The value is first read as an ordinary query item, the first `data` item when there are several (noted as a repeated
/// item, like any other: the first occurrence is the one read). When that fails — the value held unescaped `&`
/// (integrators following the doc's `URLQueryAllowedCharacterSet` advice leave `& + = /` unescaped), or the callback
/// URL had its own query joined with `?` — every `data=` that starts an item (at the start of the query or after `&` or
/// `?`) is tried in turn, taking everything after it as the value; the first that decodes to a JSON object wins, and
/// the text before it is read as the URL's own query.
struct SquareData {
    /// The decoded JSON object.
    var object: [String: JSONValue]
    /// The literal text of each number in `object` read as something else (`500.0` read as 500), by dotted path.
    var numberLiterals: [String: String]
    /// The text as written of each member of `object` whose value is not a string (`1.0`, `{"order":1}`).
    var rawMembers: [String: String]
    /// The query items outside `data`, percent-decoded.
    var outerItems: [URLQueryItem]
    /// What was noticed while extracting.
    var notes: [ParseNote]

    init(_ url: ParsedURL) throws(ProviderError) {
        let dataItems = url.items.filter { $0.name == "data" }
        // The first `data` item, as every other repeated item is read (noted when it is not the only one).
        if let value = dataItems.first?.value, let read = JSONValue.notedObject(from: value) {
            (self.object, self.numberLiterals, self.rawMembers) = (read.object, read.numberLiterals, read.rawMembers)
            self.outerItems = url.items.filter { $0.name != "data" }
            self.notes = (dataItems.count > 1 ? [.duplicateQueryItem("data")] : []) + Self.duplicateNotes(read.duplicates)
            return
        }
        var query = url.percentEncodedQuery ?? ""
        var sawData = !dataItems.isEmpty
        let recovered = query.withUTF8 { bytes -> (read: NotedJSONObject, before: String)? in
            for start in Self.itemsStartingWithData(bytes) {
                sawData = true
                let encoded = String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 5)...]), as: UTF8.self)
                guard let read = JSONValue.notedObject(from: encoded.percentDecoded ?? encoded) else { continue }
                // The text before it, without the `&` or `?` that joined the two.
                let before = UnsafeBufferPointer(rebasing: bytes[..<(start == 0 ? 0 : start - 1)])
                return (read, String(decoding: before, as: UTF8.self))
            }
            return nil
        }
        if let recovered {
            var notes: [ParseNote] = [.dataRecoveredFromRawQuery] + Self.duplicateNotes(recovered.read.duplicates)
            let read = recovered.read
            (self.object, self.numberLiterals, self.rawMembers) = (read.object, read.numberLiterals, read.rawMembers)
            self.outerItems = ParsedURL.items(ofQuery: recovered.before, notes: &notes) ?? []
            self.notes = notes
            return
        }
        if sawData { throw .undecodableSquareData("no `data` value decodes to a JSON object") }
        throw .missingSquareData
    }

    /// The offsets in `query` of every `data=` that starts an item: at the start, or after `&` or `?`. A byte
    /// search: most callbacks that reach it (SumUp's, iZettle's) hold none, and `String.ranges(of:)` cost more
    /// than reading the rest of such a callback.
    private static func itemsStartingWithData(_ query: UnsafeBufferPointer<UInt8>) -> [Int] {
        var starts: [Int] = []
        var index = 0
        while index + 5 <= query.count {
            if query[index] == UInt8(ascii: "d"), query[index + 1] == UInt8(ascii: "a"),
                query[index + 2] == UInt8(ascii: "t"), query[index + 3] == UInt8(ascii: "a"),
                query[index + 4] == UInt8(ascii: "="),
                index == 0 || query[index - 1] == UInt8(ascii: "&") || query[index - 1] == UInt8(ascii: "?")
            {
                starts.append(index)
            }
            index += 1
        }
        return starts
    }

    /// The notes for keys met twice in one object: the value read and the other, as JSON text.
    private static func duplicateNotes(_ duplicates: [JSONValue.DuplicateKey]) -> [ParseNote] {
        duplicates.map { .duplicateJSONKey($0.path, read: $0.kept.jsonText, other: $0.dropped.jsonText) }
    }

    /// The members kept as written when they are not strings, rather than flattened: `version` (a number's literal,
    /// `1.0`, not the 1 it reads as) and `state` (echoed verbatim, so compared as sent; its inside holds no keys).
    static let keptAsWritten: Set<String> = ["version", "state"]

    /// All JSON keys flattened with dotted paths, plus the URL's own query items as `query.<name>`. A `null` member
    /// is left out as absent (noted as ``PaylogDomain/ParseNote/jsonNull(_:)``); `version` and `state` that are not
    /// strings are kept as written (a `state` noted as ``PaylogDomain/ParseNote/stateNotString(_:)``).
    func fields(notes: inout [ParseNote]) -> [String: String] {
        var fields = [String: String](minimumCapacity: 2 * object.count + outerItems.count)
        var nulls: [String] = []
        for (key, value) in object {
            if Self.keptAsWritten.contains(key), let raw = rawMembers[key], value != .null {
                fields[key] = raw
                if key == "state" { notes.append(.stateNotString(raw)) }
            } else {
                value.flatten(at: key, into: &fields, nulls: &nulls)
            }
        }
        notes += nulls.sorted().map(ParseNote.jsonNull)
        for (key, value) in outerItems.fields(prefix: "query.", notes: &notes) where fields[key] == nil {
            fields[key] = value
        }
        return fields
    }
}
