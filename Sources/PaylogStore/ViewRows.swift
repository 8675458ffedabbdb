/// The rows a ``StreamFoldingProjection`` derives from the streams it folds.
///
/// Keys and values are kept back to back in one byte buffer (no array per row), which the rebuild hands to its
/// sorter whole.
public struct ViewRows: Sendable {
    /// Where one row sits in ``bytes``.
    struct Entry: Sendable {
        var offset: Int
        var keyCount: Int
        var valueCount: Int
        var database: String
        /// See ``ViewRow/position``.
        var position: UInt64
    }

    /// The rows' keys and values, each key followed by its value.
    private(set) var bytes: [UInt8] = []
    /// The rows, in the order they were added; a rebuild sorts them before it writes them.
    private(set) var entries: [Entry] = []

    /// Empty rows.
    public init() {}

    /// How many rows there are.
    public var count: Int { entries.count }

    /// The rows as values (tests and diagnostics; a rebuild reads the buffer directly).
    public var rows: [ViewRow] {
        entries.map { entry in
            let keyEnd = entry.offset + entry.keyCount
            return ViewRow(
                database: entry.database, key: Array(bytes[entry.offset..<keyEnd]),
                value: Array(bytes[keyEnd..<(keyEnd + entry.valueCount)]), position: entry.position)
        }
    }

    /// Adds a row the stream owns — typically keyed by the stream id itself. No other stream may write the same
    /// key of the same database: the rebuild fails if one does.
    public mutating func append(_ value: [UInt8], for key: [UInt8], in database: String) {
        add(key, value, database, position: 0)
    }

    /// Adds a row the stream owns, its key given as text (its UTF-8 bytes).
    public mutating func append(_ value: [UInt8], for key: String, in database: String) {
        add(key.utf8, value, database, position: 0)
    }

    /// Adds a row the stream owns, keyed by `key`'s UTF-8 bytes, its value written by `value` straight after the
    /// key in the rows' buffer: no array of its own to allocate, fill and copy (a fold writes one per stream).
    public mutating func append(for key: String, in database: String, value: (inout ProtoWireWriter) -> Void) {
        let offset = bytes.count
        bytes.append(contentsOf: key.utf8)
        let keyCount = bytes.count - offset
        var writer = ProtoWireWriter(appendingTo: &bytes)
        value(&writer)
        bytes = writer.takeBytes()
        entries.append(Entry(
            offset: offset, keyCount: keyCount, valueCount: bytes.count - offset - keyCount, database: database, position: 0))
    }

    /// Adds a row keyed by anything (a secondary index). Where several rows share a key, the one with the
    /// highest `position` is kept — the row the event applied last in log order would have left.
    public mutating func index(_ value: [UInt8], for key: [UInt8], in database: String, position: UInt64) {
        add(key, value, database, position: position)
    }

    /// Adds an indexed row whose key and value are text (their UTF-8 bytes).
    public mutating func index(_ value: String, for key: String, in database: String, position: UInt64) {
        add(key.utf8, value.utf8, database, position: position)
    }

    /// Removes every row, keeping the buffers' capacity.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
    }

    private mutating func add(
        _ key: some Collection<UInt8>, _ value: some Collection<UInt8>, _ database: String, position: UInt64
    ) {
        let offset = bytes.count
        bytes.append(contentsOf: key)
        let keyCount = bytes.count - offset
        bytes.append(contentsOf: value)
        entries.append(Entry(
            offset: offset, keyCount: keyCount, valueCount: bytes.count - offset - keyCount, database: database,
            position: position))
    }
}
