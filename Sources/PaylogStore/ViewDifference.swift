/// One entry where a rebuilt view differs from the live one.
public struct ViewDifference: Sendable, Hashable {
    /// The projection database.
    public var database: String
    /// The key, as text where it is UTF-8.
    public var key: String
    /// What differs: `missing in live`, `missing in rebuild`, or `different value`; for the status view's
    /// check of declared tags, what the record declares against what its payload gives.
    public var kind: String

    /// A difference in `database` at `key`.
    public init(database: String, key: String, kind: String) {
        self.database = database
        self.key = key
        self.kind = kind
    }
}
