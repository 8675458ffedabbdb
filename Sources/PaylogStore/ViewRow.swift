/// One key/value pair a ``StreamFoldingProjection`` writes into one of its databases.
public struct ViewRow: Sendable, Hashable {
    /// The logical database name, one of the projection's ``InlineProjection/databaseNames``.
    public var database: String
    /// The key bytes.
    public var key: [UInt8]
    /// The value bytes.
    public var value: [UInt8]
    /// For indexed rows, the log position of the event that set the row: where several streams write one key,
    /// the highest position wins (positions start at 1). 0 for a row one stream owns (``ViewRows/append(_:for:in:)``).
    public var position: UInt64

    /// A row.
    public init(database: String, key: [UInt8], value: [UInt8], position: UInt64 = 0) {
        self.database = database
        self.key = key
        self.value = value
        self.position = position
    }
}
