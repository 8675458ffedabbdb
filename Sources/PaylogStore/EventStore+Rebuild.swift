import LMDBKit

extension EventStore {
    /// Rebuilds every inline projection blue/green while the store stays in use: a new generation of each view is
    /// built from the log beside the live one, in chunks that take turns with appends on the writer thread; the
    /// live view keeps serving readers and keeps being updated; once the new view has caught up with the head,
    /// one transaction makes it live. Readers never see a half-built view.
    ///
    /// A ``StreamFoldingProjection`` is first built stream by stream up to the head as it was when the rebuild
    /// began (two batches of streams folded at once, rows appended in key order), then caught up in log order.
    ///
    /// - Parameters:
    ///   - chunk: events folded or applied per turn of the writer.
    ///   - sortMemory: bytes a stream-order build may hold of secondary-index rows before it sorts them into a
    ///     run file inside the store directory (removed when the build ends).
    ///   - mappedMemoryLimit: if set, a stream-order build releases the log's memory-mapped pages whenever the
    ///     process's resident file-backed memory passes this many bytes. It bounds the resident set at a cost in
    ///     speed (see Docs/performance.md); by default the pages stay mapped (they are reclaimable page cache).
    ///   - progress: called after each turn with (position or events folded, head).
    public func rebuildProjections(
        chunk: Int = 20_000, sortMemory: Int = 48 << 20, mappedMemoryLimit: Int? = nil,
        progress: @escaping @Sendable (UInt64, UInt64) -> Void = { _, _ in }
    ) async throws {
        for projection in databases.projections {
            try await onWriterThread { [databases, environment] in
                try EventStore.startGreen(projection, environment: environment, databases: databases)
            }
            if let folding = projection as? any StreamFoldingProjection {
                try await buildGreenInStreamOrder(
                    folding, chunk: chunk, sortMemory: sortMemory, mappedMemoryLimit: mappedMemoryLimit, progress: progress)
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

    /// Builds `projection`'s green view stream by stream up to the head as it is now (see ``StreamOrderBuild``)
    /// and moves the green checkpoint there; the log-order catch-up applies what was appended meanwhile.
    /// Folding the next batch of streams overlaps with the writer thread appending the previous batch's rows.
    func buildGreenInStreamOrder(
        _ projection: any StreamFoldingProjection, chunk: Int, sortMemory: Int, mappedMemoryLimit: Int?,
        progress: @escaping @Sendable (UInt64, UInt64) -> Void
    ) async throws {
        // With an empty log there is nothing to fold; skipping also keeps the green checkpoint where the writer
        // may already have moved it (it applies the event at position 1 to a green view at 0).
        let snapshot = try lastPosition()
        guard snapshot > 0, let green = databases.views.sets(of: projection.name).green else { return }
        let view = ProjectionDatabases(byName: green.databases)
        let build = StreamOrderBuild(
            snapshot: snapshot, scratchDirectory: scratchDirectory(projection), sortMemory: sortMemory,
            mappedBudget: mappedMemoryLimit)
        defer { build.sorter.close() }
        let environment = environment
        let name = projection.name
        // Two folds in flight (one per core); their rows are taken, and written, in plan order.
        var folds: [(StreamPlan, Task<ViewRows, any Error>)] = []
        var pending: Task<Void, any Error>?
        var planning = true
        while planning || !folds.isEmpty {
            let batch = min(chunk, StreamOrderBuild.largestBatch)
            if planning, let plan = try build.nextPlan(environment, databases, maximumEvents: batch) {
                let databases = databases
                let budget = build.mappedBudget
                folds.append((plan, Task.detached {
                    try StreamOrderBuild.fold(plan, projection, environment, databases, mappedBudget: budget)
                }))
                if folds.count < 2 { continue }
            } else {
                planning = false
            }
            let (plan, fold) = folds.removeFirst()
            let rows = try build.accept(try await fold.value, of: plan)
            try await pending?.value
            pending = Task {
                try await self.onWriterThread {
                    try environment.write { txn in try StreamOrderBuild.write(rows, projection: name, txn, view) }
                }
            }
            progress(build.folded, build.snapshot)
        }
        try await pending?.value
        while true {
            let rows = try build.sorter.next(chunk)
            if rows.isEmpty { break }
            try await onWriterThread {
                try environment.write { txn in try StreamOrderBuild.write(rows, projection: name, txn, view) }
            }
        }
        let checkpoint = ProjectionCheckpoint(version: projection.version, position: build.snapshot, generation: green.generation)
        try await onWriterThread { [databases] in
            try environment.write { txn in try checkpoint.save(name, txn, databases.meta, green: true) }
        }
    }

    /// The same as ``buildGreenInStreamOrder(_:chunk:sortMemory:mappedMemoryLimit:progress:)``, without overlap:
    /// for the rebuild at open, before the writer thread exists.
    static func buildGreenInStreamOrder(
        _ projection: any StreamFoldingProjection, environment: Environment, databases: StoreDatabases, chunk: Int
    ) throws {
        guard let green = databases.views.sets(of: projection.name).green else { return }
        let view = ProjectionDatabases(byName: green.databases)
        let snapshot = try environment.read { txn in try ChainHead.load(txn, databases).position }
        guard snapshot > 0 else { return }
        let build = StreamOrderBuild(snapshot: snapshot, scratchDirectory: scratchDirectory(projection, environment: environment))
        defer { build.sorter.close() }
        while let plan = try build.nextPlan(environment, databases, maximumEvents: min(chunk, StreamOrderBuild.largestBatch)) {
            let folded = try StreamOrderBuild.fold(plan, projection, environment, databases, mappedBudget: nil)
            let rows = try build.accept(folded, of: plan)
            try environment.write { txn in try StreamOrderBuild.write(rows, projection: projection.name, txn, view) }
        }
        while true {
            let rows = try build.sorter.next(chunk)
            if rows.isEmpty { break }
            try environment.write { txn in try StreamOrderBuild.write(rows, projection: projection.name, txn, view) }
        }
        let checkpoint = ProjectionCheckpoint(version: projection.version, position: snapshot, generation: green.generation)
        try environment.write { txn in try checkpoint.save(projection.name, txn, databases.meta, green: true) }
    }

    /// Where a stream-order rebuild of `projection` spills its sort runs: a directory inside the store's.
    func scratchDirectory(_ projection: any InlineProjection) -> String {
        EventStore.scratchDirectory(projection, environment: environment)
    }

    static func scratchDirectory(_ projection: any InlineProjection, environment: Environment) -> String {
        environment.path + "/rebuild-scratch-" + projection.name
    }
}
