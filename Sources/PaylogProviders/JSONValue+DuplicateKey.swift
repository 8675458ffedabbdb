extension JSONValue {
    /// A key met again in one JSON object: the reading keeps the first value (as `JSONDecoder` does), while another
    /// reader (`JSONSerialization`, perhaps the provider's app) keeps the last.
    struct DuplicateKey: Sendable, Hashable {
        /// The key's dotted path from the outermost object, e.g. `status` or `amount_money.amount`.
        var path: String
        /// The value read: the first.
        var kept: JSONValue
        /// A later value, not read.
        var dropped: JSONValue
    }
}
