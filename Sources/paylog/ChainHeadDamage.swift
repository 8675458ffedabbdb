import PaylogStore

/// A store that could not be opened because its chain head is damaged
/// (``PaylogStore/EventStoreError/damagedChainHead``): an error like any other open failure (exit 1), except to
/// `verify` and `replay`, which report it as the broken chain it is (exit 3).
struct ChainHeadDamage: Error, CustomStringConvertible {
    /// The store's directory.
    var path: String
    /// What is wrong with the head.
    var problem: String
    /// The store's error, with what to do.
    var error: EventStoreError

    var description: String { "Cannot open the store at \(path): \(error)" }
}
