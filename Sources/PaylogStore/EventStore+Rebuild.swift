import LMDBKit

extension EventStore {
    /// Rebuilds every inline projection blue/green while the store stays in use: a new generation of each view is
    /// built from the log beside the live one, in chunks that take turns with appends on the writer thread; the
    /// live view keeps serving readers and keeps being updated; once the new view has caught up with the head,
    /// one transaction makes it live. Readers never see a half-built view. `chunk` events are applied per turn;
    /// `progress` gets (position, head).
    public func rebuildProjections(
        chunk: Int = 20_000, progress: @escaping @Sendable (UInt64, UInt64) -> Void = { _, _ in }
    ) async throws {
        for projection in databases.projections {
            try await onWriterThread { [databases, environment] in
                try EventStore.startGreen(projection, environment: environment, databases: databases)
            }
            while true {
                let done = try await onWriterThread { [databases, environment] in
                    try EventStore.catchUpGreen(projection, environment: environment, databases: databases, chunk: chunk, progress: progress)
                }
                if done { break }
            }
        }
    }

    /// The generation of databases holding `projection`'s live view (0 until its first rebuild).
    public func viewGeneration(of projection: String) -> UInt64? {
        databases.views.sets(of: projection).active?.generation
    }

    /// Creates the next generation's empty databases and a green checkpoint at position 0.
    static func startGreen(_ projection: any InlineProjection, environment: Environment, databases: StoreDatabases) throws {
        let set = try environment.write { txn -> ViewRegistry.ViewSet in
            let live = try ProjectionCheckpoint.load(projection.name, txn, databases.meta)
            let generation = (live?.generation ?? 0) + 1
            var set = ViewRegistry.ViewSet(generation: generation, databases: [:])
            for name in projection.databaseNames {
                let database = try txn.openDatabase(ViewRegistry.physicalName(name, generation: generation), create: true)!
                try txn.clear(database)
                set.databases[name] = database
            }
            try ProjectionCheckpoint(version: projection.version, position: 0, generation: generation)
                .save(projection.name, txn, databases.meta, green: true)
            return set
        }
        databases.views.setGreen(projection.name, set)
    }

    /// Applies the next `chunk` events to the green view; when it reaches the head, makes it live in the same
    /// transaction. Returns true once the green view is live.
    static func catchUpGreen(
        _ projection: any InlineProjection, environment: Environment, databases: StoreDatabases, chunk: Int,
        progress: (UInt64, UInt64) -> Void = { _, _ in }
    ) throws -> Bool {
        guard let green = databases.views.sets(of: projection.name).green else { return true }
        let view = ProjectionDatabases(byName: green.databases)
        let (position, head, promoted) = try environment.write { txn -> (UInt64, UInt64, Bool) in
            var checkpoint = try ProjectionCheckpoint.load(projection.name, txn, databases.meta, green: true)!
            let head = try ChainHead.load(txn, databases).position
            if checkpoint.position < head {
                checkpoint.position = try applyRange(projection, from: checkpoint.position + 1, limit: chunk, txn, databases, view)
            }
            if checkpoint.position == head {
                try checkpoint.save(projection.name, txn, databases.meta)
                _ = try txn.delete(ProjectionCheckpoint.key(projection.name, green: true), in: databases.meta)
                return (checkpoint.position, head, true)
            }
            try checkpoint.save(projection.name, txn, databases.meta, green: true)
            return (checkpoint.position, head, false)
        }
        progress(position, head)
        if promoted { databases.views.promote(projection.name) }
        return promoted
    }
}
