extension EventStoreError {
    /// What is wrong with the stored chain head when this error is its damage
    /// (``metaDamaged(entry:reason:)`` of the `head` entry), else nil: the commands that check the chain report it
    /// as a broken chain, since the log's end can no longer be checked against it.
    public var damagedChainHead: String? {
        guard case .metaDamaged(let entry, let reason) = self, entry == "head" else { return nil }
        return "the stored chain head (`meta`, `head`) \(reason): where the log ends cannot be checked"
    }
}
