extension EventStoreError {
    /// When this error is damage to the hash chain found as a store opens, what is wrong and the first position the
    /// chain breaks at (when known), else nil. Such damage stops the open: a chain head of the wrong length
    /// (``metaDamaged(entry:reason:)`` of `head`: the log's end cannot be checked), or a view standing past the head
    /// of a view this release rebuilds at open (``logCutShort(view:checkpoint:head:)``). The commands that check the
    /// chain report it as a broken chain.
    public var chainDamage: (problem: String, firstBrokenPosition: UInt64?)? {
        switch self {
        case .metaDamaged(let entry, let reason) where entry == "head":
            return ("the stored chain head (`meta`, `head`) \(reason): where the log ends cannot be checked", nil)
        case .logCutShort(let view, let checkpoint, let head):
            return (ChainHead.cutShortProblem(view: view, checkpoint: checkpoint, head: head), head + 1)
        default:
            return nil
        }
    }
}
