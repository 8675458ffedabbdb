/// One entry where a rebuilt view differs from the live one.
public struct ViewDifference: Sendable, Hashable {
    /// The projection database.
    public var database: String
    /// The key, as text where it is UTF-8.
    public var key: String
    /// What differs: `missing in live`, `missing in rebuild`, or `different value`.
    public var kind: String
}
