import Foundation
import PaylogDomain

/// The JSON object carried in a Square URL's `data` item, and the URL's other query items.
///
/// The value is first read as an ordinary query item. When that fails — the value held unescaped `&`
/// (integrators following the doc's `URLQueryAllowedCharacterSet` advice leave `& + = /` unescaped), or the
/// callback URL had its own query joined with `?` — every `data=` that starts an item (at the start of the
/// query or after `&` or `?`) is tried in turn, taking everything after it as the value; the first that
/// decodes to a JSON object wins, and the text before it is read as the URL's own query.
struct SquareData {
    /// The decoded JSON object.
    var object: [String: JSONValue]
    /// The query items outside `data`, percent-decoded.
    var outerItems: [URLQueryItem]
    /// What was noticed while extracting.
    var notes: [ParseNote]

    init(_ url: ParsedURL) throws(ProviderError) {
        let dataItems = url.items.filter { $0.name == "data" }
        if dataItems.count == 1, let value = dataItems[0].value, let object = JSONValue.object(from: value) {
            self.object = object
            self.outerItems = url.items.filter { $0.name != "data" }
            self.notes = []
            return
        }
        let query = url.percentEncodedQuery ?? ""
        var sawData = !dataItems.isEmpty
        for range in query.ranges(of: "data=") {
            if range.lowerBound != query.startIndex {
                let before = query[query.index(before: range.lowerBound)]
                guard before == "&" || before == "?" else { continue }
            }
            sawData = true
            let encoded = String(query[range.upperBound...])
            guard let object = JSONValue.object(from: encoded.percentDecoded ?? encoded) else { continue }
            var prefix = query[..<range.lowerBound]
            if prefix.last == "&" || prefix.last == "?" { prefix = prefix.dropLast() }
            var notes: [ParseNote] = [.dataRecoveredFromRawQuery]
            self.object = object
            self.outerItems = ParsedURL.items(ofQuery: String(prefix), notes: &notes) ?? []
            self.notes = notes
            return
        }
        if sawData { throw .undecodableSquareData("no `data` value decodes to a JSON object") }
        throw .missingSquareData
    }

    /// All JSON keys flattened with dotted paths, plus the URL's own query items as `query.<name>`.
    func fields(notes: inout [ParseNote]) -> [String: String] {
        var fields = [String: String](minimumCapacity: 2 * object.count + outerItems.count)
        JSONValue.object(object).flatten(at: "", into: &fields)
        for (key, value) in outerItems.fields(prefix: "query.", notes: &notes) where fields[key] == nil {
            fields[key] = value
        }
        return fields
    }
}
