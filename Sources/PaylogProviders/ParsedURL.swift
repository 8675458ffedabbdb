import Foundation
import PaylogDomain

/// A URL read with `URLComponents`, with its query items percent-decoded.
///
/// Reading is strict first; when the text holds characters that must be escaped (space, `{`, `"`, a stray
/// `%`), it is read again leniently (Foundation escapes them) and ``notes`` records
/// ``PaylogDomain/ParseNote/lenientURLParsing``. A value whose percent-decoding is not UTF-8 is kept
/// percent-encoded. `+` is kept as a literal plus (RFC 3986), never turned into a space.
struct ParsedURL {
    /// The parsed URL.
    var components: URLComponents
    /// The query items in order, names and values percent-decoded.
    var items: [URLQueryItem]
    /// What was noticed while reading.
    var notes: [ParseNote]

    /// The lowercased scheme.
    var scheme: String { components.scheme?.lowercased() ?? "" }

    init(_ raw: String) throws(ProviderError) {
        var notes: [ParseNote] = []
        var parsed = URLComponents(string: raw, encodingInvalidCharacters: false)
        if parsed == nil {
            parsed = URLComponents(string: raw, encodingInvalidCharacters: true)
            notes.append(.lenientURLParsing)
        }
        guard let components = parsed, let scheme = components.scheme, !scheme.isEmpty else {
            throw .notAURL(raw)
        }
        self.components = components
        self.items = Self.decodedItems(components.percentEncodedQueryItems ?? [], notes: &notes)
        self.notes = notes
    }

    /// Percent-decodes names and values, keeping the encoded text (and noting it) when decoding fails.
    static func decodedItems(_ encoded: [URLQueryItem], notes: inout [ParseNote]) -> [URLQueryItem] {
        encoded.map { item in
            let name = item.name.percentDecoded ?? item.name
            if item.name.percentDecoded == nil { notes.append(.undecodablePercentEncoding(item.name)) }
            guard let value = item.value else { return URLQueryItem(name: name, value: nil) }
            guard let decoded = value.percentDecoded else {
                notes.append(.undecodablePercentEncoding(name))
                return URLQueryItem(name: name, value: value)
            }
            return URLQueryItem(name: name, value: decoded)
        }
    }

    /// Reads a bare percent-encoded query (no `?`) into decoded items; `nil` when it is not a valid query.
    static func items(ofQuery query: String, notes: inout [ParseNote]) -> [URLQueryItem]? {
        guard !query.isEmpty else { return [] }
        guard let components = URLComponents(string: "q:?" + query, encodingInvalidCharacters: false) else {
            return nil
        }
        return decodedItems(components.percentEncodedQueryItems ?? [], notes: &notes)
    }
}
