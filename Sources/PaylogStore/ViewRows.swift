/// The rows a ``StreamFoldingProjection`` derives from the streams it folds.
public struct ViewRows: Sendable {
    /// Rows keyed in stream order, appended as they come.
    var ordered: [ViewRow] = []
    /// Rows keyed otherwise, sorted before they are written.
    var indexed: [ViewRow] = []

    /// Empty rows.
    public init() {}

    /// Adds a row whose key rises with the stream id — typically the stream id itself. Across the streams of a
    /// rebuild, which come in the byte order of their ids, these keys must strictly rise per database, or the
    /// rebuild fails with LMDB's `MDB_KEYEXIST`.
    public mutating func append(_ value: [UInt8], for key: [UInt8], in database: String) {
        ordered.append(ViewRow(database: database, key: key, value: value))
    }

    /// Adds a row keyed by anything (a secondary index). Where several rows share a key, the one with the
    /// highest `position` is kept — the row the event applied last in log order would have left.
    public mutating func index(_ value: [UInt8], for key: [UInt8], in database: String, position: UInt64) {
        indexed.append(ViewRow(database: database, key: key, value: value, position: position))
    }
}
