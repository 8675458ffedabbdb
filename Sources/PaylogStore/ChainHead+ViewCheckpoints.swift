import LMDBKit

extension ChainHead {
    /// The first live view whose checkpoint stands past this head, with that checkpoint's position, or nil.
    ///
    /// Every write transaction saves the live views' checkpoints at the head it saves
    /// (``Writer/saveHead(_:in:databases:)``), and opening a store only catches a view up to the head, so a
    /// checkpoint is never past the head paylog wrote. One that is shows events removed from the log's end with the
    /// head rewritten to match (a log cut short that would otherwise verify as a shorter, intact one), or an edited
    /// checkpoint. The next append would overwrite that trace, so appends are refused while it stands.
    func viewAhead(_ txn: borrowing Transaction, _ databases: StoreDatabases) throws -> (view: String, position: UInt64)? {
        for projection in databases.projections {
            if let checkpoint = try ProjectionCheckpoint.load(projection.name, txn, databases.meta),
               checkpoint.position > position {
                return (projection.name, checkpoint.position)
            }
        }
        return nil
    }

    /// Why the log behind this head looks cut short, given the view ``viewAhead(_:_:)`` found and its checkpoint: a
    /// sentence for ``ChainReport/problem`` and for a refused append.
    func cutShortProblem(view: String, position checkpoint: UInt64) -> String {
        "the \(view) view was brought up to position \(checkpoint), but the log and its head end at position "
            + "\(position): events after \(position) were removed from the log's end and the head rewritten to "
            + "match, or the view's checkpoint in `meta` was edited"
    }
}
