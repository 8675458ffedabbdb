import LMDBKit

extension ChainHead {
    /// The first live view whose checkpoint stands past this head, with that checkpoint's position, or nil.
    ///
    /// Every write transaction saves the live views' checkpoints at the head it saves
    /// (``Writer/saveHead(_:in:databases:)``), and a view's catch-up never goes past the head, so a checkpoint is
    /// never past the head paylog wrote. One that is shows events removed from the log's end with the head rewritten
    /// to match (a log cut short that would otherwise verify as a shorter, intact one), or an edited checkpoint.
    /// Whatever would overwrite that trace is refused (``EventStoreError/logCutShort(view:checkpoint:head:)``).
    ///
    /// Every live view's checkpoint in `meta` is read (`projection:<name>`), not only those of the projections this
    /// process opened the store with: a process that keeps no view must not erase another's trace by appending.
    /// One cursor descent and a step per view.
    func viewAhead(_ txn: borrowing Transaction, _ databases: StoreDatabases) throws -> (view: String, position: UInt64)? {
        let prefix = ProjectionCheckpoint.key("")
        return try txn.withCursor(databases.meta) { cursor -> (view: String, position: UInt64)? in
            var found = try cursor.move(.atOrAfter, key: prefix)
            while found {
                // nil: past the checkpoints; .some(nil): a checkpoint not past the head (or not one paylog wrote,
                // which the view's own open reports).
                let ahead = cursor.withCurrent { key, value -> (view: String, position: UInt64)?? in
                    guard key.starts(with: prefix) else { return nil }
                    guard value.count == 16 || value.count == 24 else { return .some(nil) }
                    let checkpoint = StoreKeys.readUInt64(value, at: 8)
                    guard checkpoint > position else { return .some(nil) }
                    return (String(decoding: UnsafeRawBufferPointer(rebasing: key[prefix.count...]), as: UTF8.self), checkpoint)
                }
                guard let ahead else { return nil }
                if let ahead { return ahead }
                found = try cursor.move(.next)
            }
            return nil
        }
    }

    /// Why a log whose head is at `head` looks cut short, given the view ``viewAhead(_:_:)`` found and its
    /// checkpoint: a sentence for ``ChainReport/problem`` and for ``EventStoreError/logCutShort(view:checkpoint:head:)``.
    static func cutShortProblem(view: String, checkpoint: UInt64, head: UInt64) -> String {
        "the \(view) view was brought up to position \(checkpoint), but the log and its head end at position "
            + "\(head): events after \(head) were removed from the log's end and the head rewritten to match, or the "
            + "view's checkpoint in `meta` was edited"
    }
}
