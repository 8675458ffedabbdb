/// The rows a ``StreamFoldingProjection`` derives from the streams it folds.
public struct ViewRows: Sendable {
    /// The rows, in the order they were added; a rebuild sorts them before it writes them.
    var rows: [ViewRow] = []

    /// Empty rows.
    public init() {}

    /// Adds a row the stream owns — typically keyed by the stream id itself. No other stream may write the same
    /// key of the same database: the rebuild fails if one does.
    public mutating func append(_ value: [UInt8], for key: [UInt8], in database: String) {
        rows.append(ViewRow(database: database, key: key, value: value))
    }

    /// Adds a row keyed by anything (a secondary index). Where several rows share a key, the one with the
    /// highest `position` is kept — the row the event applied last in log order would have left.
    public mutating func index(_ value: [UInt8], for key: [UInt8], in database: String, position: UInt64) {
        rows.append(ViewRow(database: database, key: key, value: value, position: position))
    }
}
