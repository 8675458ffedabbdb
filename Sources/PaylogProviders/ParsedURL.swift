import Foundation
import PaylogDomain

/// A URL's scheme, host, path and query, with its query items percent-decoded.
///
/// A URL of the plain shape `scheme://host/path?query` made only of characters RFC 3986 allows unescaped is read
/// by ``PlainURL``; any other is read with `URLComponents`, which gives the same parts for the plain ones. Reading
/// is strict first; when the text holds characters that must be escaped (space, `{`, `"`, a stray `%`), it is
/// read again leniently (``LenientURLEscaping`` escapes them, and only them) and ``notes`` records
/// ``PaylogDomain/ParseNote/lenientURLParsing``. A value whose percent-decoding is not UTF-8 is kept
/// percent-encoded. `+` is kept as a literal plus (RFC 3986), never turned into a space.
struct ParsedURL {
    /// The scheme as written (never empty).
    var rawScheme: String
    /// The host, percent-decoded; nil when the URL has no authority (`scheme:path`).
    var host: String?
    /// The path, percent-decoded.
    var path: String
    /// The text after the first `?`, still percent-encoded; nil when there is no `?`.
    var percentEncodedQuery: String?
    /// The query items in order, names and values percent-decoded.
    var items: [URLQueryItem]
    /// What was noticed while reading.
    var notes: [ParseNote]

    /// The lowercased scheme.
    var scheme: String { rawScheme.lowercased() }

    init(_ raw: String) throws(ProviderError) {
        var notes: [ParseNote] = []
        if let plain = PlainURL.read(raw) {
            rawScheme = plain.scheme
            host = plain.host
            path = plain.path
            percentEncodedQuery = plain.percentEncodedQuery
            items = Self.decodedItems(plain.percentEncodedQueryItems, notes: &notes)
            self.notes = notes
            return
        }
        var parsed = URLComponents(string: raw, encodingInvalidCharacters: false)
        if parsed == nil {
            parsed = URLComponents(string: LenientURLEscaping.escape(raw), encodingInvalidCharacters: false)
            notes.append(.lenientURLParsing)
        }
        guard let components = parsed, let scheme = components.scheme, !scheme.isEmpty else {
            throw .notAURL(raw)
        }
        rawScheme = scheme
        host = components.host
        path = components.path
        percentEncodedQuery = components.percentEncodedQuery
        items = Self.decodedItems(components.percentEncodedQueryItems ?? [], notes: &notes)
        self.notes = notes
    }

    /// Percent-decodes names and values, keeping the encoded text (and noting it) when decoding fails.
    static func decodedItems(_ encoded: [URLQueryItem], notes: inout [ParseNote]) -> [URLQueryItem] {
        encoded.map { item in
            let decodedName = item.name.percentDecoded
            if decodedName == nil { notes.append(.undecodablePercentEncoding(item.name)) }
            let name = decodedName ?? item.name
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
        if let plain = PlainURL.read("q://?" + query) {
            return decodedItems(plain.percentEncodedQueryItems, notes: &notes)
        }
        guard let components = URLComponents(string: "q:?" + query, encodingInvalidCharacters: false) else {
            return nil
        }
        return decodedItems(components.percentEncodedQueryItems ?? [], notes: &notes)
    }
}
