extension EventStore {
    /// How many events each inline projection's live view is behind the head of the log. Inline views are
    /// written in the append's own transaction, so this is 0 except while a view generation is being rebuilt
    /// or when the stored checkpoint is missing (then the whole log counts as lag).
    public func projectionLag() throws(EventStoreError) -> [String: UInt64] {
        try reading { txn in
            let head = try ChainHead.load(txn, databases).position
            var lag: [String: UInt64] = [:]
            for projection in databases.projections {
                let position = try ProjectionCheckpoint.load(projection.name, txn, databases.meta)?.position ?? 0
                lag[projection.name] = head > position ? head - position : 0
            }
            return lag
        }
    }
}
