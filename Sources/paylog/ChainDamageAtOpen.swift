import PaylogStore

/// A store that could not be opened because its hash chain is damaged (``PaylogStore/EventStoreError/chainDamage``):
/// an error like any other open failure (exit 1), except to `verify`, `replay` and `rebuild-views`, which report it
/// as the broken chain it is (exit 3).
struct ChainDamageAtOpen: Error, CustomStringConvertible {
    /// The store's directory.
    var path: String
    /// What is wrong with the chain.
    var problem: String
    /// The first position the chain breaks at, when known.
    var firstBrokenPosition: UInt64?
    /// The store's error, with what to do.
    var error: EventStoreError

    var description: String { "Cannot open the store at \(path): \(error)" }

    /// The line `verify` prints for it.
    var verdict: String {
        firstBrokenPosition.map { "CHAIN BROKEN at position \($0): \(problem)." } ?? "CHAIN BROKEN: \(problem)."
    }
}
