import PaylogStore

/// A store that could not be opened because its hash chain is damaged (``PaylogStore/EventStoreError/chainDamage``):
/// an error like any other open failure (exit 1), except to `verify`, `replay` and `rebuild-views`, which report it
/// as the broken chain it is (exit 3).
struct ChainDamageAtOpen: Error, CustomStringConvertible {
    /// The store's directory.
    var path: String
    /// The store's error, with what to do; its ``PaylogStore/EventStoreError/chainDamage`` is not nil.
    var error: EventStoreError

    /// What is wrong with the chain.
    var problem: String { error.chainDamage?.problem ?? "\(error)" }
    /// The first position the chain breaks at, when known.
    var firstBrokenPosition: UInt64? { error.chainDamage?.firstBrokenPosition }

    var description: String { "Cannot open the store at \(path): \(error)" }

    /// The line `verify` prints for it.
    var verdict: String {
        firstBrokenPosition.map { "CHAIN BROKEN at position \($0): \(problem)." } ?? "CHAIN BROKEN: \(problem)."
    }
}
