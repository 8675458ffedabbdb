import LMDBKit

extension EventStore {
    /// Takes the store to this process alone until ``close()``: the ``ViewsLock`` exclusive, so that no other process
    /// has the store open meanwhile (their opens wait, then fail with ``EventStoreError/viewsBusy(path:)``). For work
    /// that must not interleave with another process's appends, such as restoring an export into an empty store.
    /// - Throws: ``EventStoreError/soleUseRefused(operation:)`` (with `operation`) when another process has the
    ///   store open; nothing is changed.
    public func takeSoleUse(for operation: String) throws(EventStoreError) {
        guard let viewsLock else { throw .readOnlyStore(reason: "a store opened read-only cannot \(operation)") }
        guard try viewsLock.tryLock(.exclusive) else { throw .soleUseRefused(operation: operation) }
    }

    /// Rebuilds every inline projection blue/green while this process goes on using the store: a new generation of
    /// each view is built from the log beside the live one, in chunks that take turns with appends on the writer
    /// thread; the live view keeps serving readers and keeps being updated; once the new view has caught up with the
    /// head, one transaction makes it live. Readers never see a half-built view.
    ///
    /// Other processes cannot follow a swap (each keeps the live generation in memory), so the rebuild needs the
    /// store to itself: it fails with ``EventStoreError/viewsInUse(operation:)`` when another process has the store
    /// open, and holds the ``ViewsLock`` exclusive until it ends, so that an open in another process waits for it.
    ///
    /// A ``StreamFoldingProjection`` is first built by folding its streams in memory during one log-order read up
    /// to the head as it was when the rebuild began (two threads taking ranges of the log in turn; rows sorted, then
    /// appended in key order), then caught up in log order.
    ///
    /// - Parameters:
    ///   - chunk: events applied per turn of the writer when catching up.
    ///   - rowsPerTransaction: sorted rows a stream-folding build appends per turn of the writer (one write
    ///     transaction, one sync).
    ///   - sortMemory: bytes a stream-folding build may hold of rows before it sorts them into a run file inside
    ///     the store directory (removed when the build ends).
    ///   - mappedMemoryLimit: a stream-folding build releases the log's memory-mapped pages whenever the
    ///     process's resident file-backed memory passes this many bytes (nil: never). The build reads the log
    ///     front to back, so released pages are rarely needed again (see Docs/performance.md).
    ///   - progress: called after each turn with (events read so far by the fold, or the catch-up's position; the head).
    /// - Returns: how long each phase took.
    @discardableResult
    public func rebuildProjections(
        chunk: Int = 20_000, rowsPerTransaction: Int = EventStore.defaultRebuildRowsPerTransaction, sortMemory: Int = 48 << 20,
        mappedMemoryLimit: Int? = EventStore.defaultRebuildMappedLimit,
        progress: @escaping @Sendable (UInt64, UInt64) -> Void = { _, _ in }
    ) async throws -> RebuildTimings {
        precondition(chunk > 0, "a rebuild's catch-up applies at least one event per turn (chunk \(chunk))")
        // Another process with the store open keeps the live generation in memory: swapping one in under it would
        // leave it on a replaced view. So the rebuild needs the store to itself (ViewsLock), and keeps it throughout.
        if let viewsLock, try !viewsLock.tryLock(.exclusive) {
            throw EventStoreError.viewsInUse(operation: "rebuild the views")
        }
        defer { _ = try? viewsLock?.tryLock(.shared) }
        let clock = ContinuousClock()
        let start = clock.now
        var timings = RebuildTimings()
        for projection in databases.projections {
            try await onWriterThread { [databases, environment] in
                try EventStore.startGreen(projection, environment: environment, databases: databases)
            }
            if let folding = projection as? any StreamFoldingProjection {
                let phases = try await buildGreenByFolding(
                    folding, rowsPerTransaction: rowsPerTransaction, sortMemory: sortMemory, mappedMemoryLimit: mappedMemoryLimit,
                    progress: progress)
                timings.streamEnds += phases.streamEnds / .seconds(1)
                timings.fold += phases.fold / .seconds(1)
                timings.write += phases.write / .seconds(1)
            }
            let catchingUp = clock.now
            while true {
                let done = try await onWriterThread { [databases, environment] in
                    try EventStore.catchUpGreen(projection, environment: environment, databases: databases, chunk: chunk, progress: progress)
                }
                if done { break }
            }
            timings.catchUp += (clock.now - catchingUp) / .seconds(1)
        }
        timings.total = (clock.now - start) / .seconds(1)
        return timings
    }

    /// The resident file-backed memory above which a rebuild releases the log's mapped pages by default.
    public static let defaultRebuildMappedLimit = defaultMappedMemoryBudget

    /// The sorted rows a stream-folding rebuild appends per write transaction by default. Each commit syncs:
    /// 20,000 rows per commit (the catch-up's chunk, used until the fifteenth performance round) took 41 commits and about a
    /// quarter of a second of `fdatasync` and `pwrite` for the 1 M replay's 750 k rows (`perf trace`); the writer
    /// thread is held about 30 ms per turn.
    public static let defaultRebuildRowsPerTransaction = 60_000

    /// The generation of databases holding `projection`'s live view (0 until its first rebuild).
    public func viewGeneration(of projection: String) -> UInt64? {
        databases.views.sets(of: projection).active?.generation
    }

    /// Creates the next generation's empty databases and a green checkpoint at position 0.
    /// Refused (``EventStoreError/logCutShort(view:checkpoint:head:)``) when a live view stands past the head: the
    /// trace of a log cut short, which the new generation, live at the head, would erase.
    static func startGreen(_ projection: any InlineProjection, environment: Environment, databases: StoreDatabases) throws {
        let set = try environment.write { txn -> ViewRegistry.ViewSet in
            let head = try ChainHead.load(txn, databases)
            if let ahead = try head.viewAhead(txn, databases) {
                throw EventStoreError.logCutShort(view: ahead.view, checkpoint: ahead.position, head: head.position)
            }
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
            // No event left below the head (events removed from the log's end, or the head edited): the green view
            // stands at the log's end, as the live one does (``catchUpLive``), and goes live there.
            var atLogEnd = false
            if checkpoint.position < head {
                let applied = try applyRange(
                    projection, from: checkpoint.position + 1, through: head, limit: chunk, txn, databases, view)
                atLogEnd = applied == checkpoint.position
                checkpoint.position = applied
            }
            if checkpoint.position == head || atLogEnd {
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

    /// Builds `projection`'s green view by folding every stream in log order up to the head as it is now (see
    /// ``LogOrderBuild``) and moves the green checkpoint there; the log-order catch-up applies what was appended
    /// meanwhile. The sorted rows are merged database by database at once, overlapping with the writer thread
    /// appending the chunks already merged. Returns how long its phases took: reading the stream ends, the fold, and
    /// the merge and writing, up to the green checkpoint saved (all zero when there was nothing to fold).
    func buildGreenByFolding<Projection: StreamFoldingProjection>(
        _ projection: Projection, rowsPerTransaction: Int, sortMemory: Int, mappedMemoryLimit: Int?,
        progress: @escaping @Sendable (UInt64, UInt64) -> Void
    ) async throws -> (streamEnds: Duration, fold: Duration, write: Duration) {
        // With an empty log there is nothing to fold; skipping also keeps the green checkpoint where the writer
        // may already have moved it (it applies the event at position 1 to a green view at 0).
        let snapshot = try lastPosition()
        guard snapshot > 0, let green = databases.views.sets(of: projection.name).green else {
            return (.zero, .zero, .zero)
        }
        let view = ProjectionDatabases(byName: green.databases)
        let build = LogOrderBuild(
            projection, snapshot: snapshot, scratchDirectory: scratchDirectory(projection), sortMemory: sortMemory,
            mappedBudget: mappedMemoryLimit)
        defer { build.close() }
        let environment = environment
        let name = projection.name
        let (streamEnds, fold) = try await build.fold(environment, databases) { position in
            progress(position, snapshot)
        }
        let clock = ContinuousClock()
        let writing = clock.now
        // One merge per database (`payments`, `routes`), each on its own task; the writer thread appends their
        // chunks as they come, each database's in key order.
        let merges = try build.merged().merges()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for merge in merges {
                group.addTask {
                    // Two batches take turns: the merge fills one while the writer thread writes the other, which
                    // then comes back to be refilled (fresh memory for every batch was a third of the merge).
                    var pending: Task<MergedRows, any Error>?
                    var spare: MergedRows?
                    while true {
                        let rows = try merge.nextBatch(rowsPerTransaction, reusing: spare.take())
                        spare = try await pending?.value
                        pending = nil
                        if rows.isEmpty { break }
                        pending = Task {
                            try await self.onWriterThread {
                                try environment.write { txn in try LogOrderBuild<Projection>.write(rows, projection: name, txn, view) }
                                // Allocating pages for the new view makes LMDB read its free list through the map
                                // (after earlier rebuilds, millions of freed pages): keep those pages under the
                                // budget too, or they grow the resident set after the fold has kept it there.
                                if let mappedMemoryLimit { environment.releaseMappedPages(ifResidentFileBytesAbove: mappedMemoryLimit) }
                            }
                            return rows
                        }
                        progress(snapshot, snapshot)
                    }
                }
            }
            try await group.waitForAll()
        }
        let checkpoint = ProjectionCheckpoint(version: projection.version, position: build.snapshot, generation: green.generation)
        try await onWriterThread { [databases] in
            try environment.write { txn in try checkpoint.save(name, txn, databases.meta, green: true) }
        }
        return (streamEnds, fold, clock.now - writing)
    }

    /// The same as ``buildGreenByFolding(_:rowsPerTransaction:sortMemory:mappedMemoryLimit:progress:)``, without overlap:
    /// for the rebuild at open, before the writer thread exists.
    static func buildGreenByFolding<Projection: StreamFoldingProjection>(
        _ projection: Projection, environment: Environment, databases: StoreDatabases
    ) throws {
        guard let green = databases.views.sets(of: projection.name).green else { return }
        let view = ProjectionDatabases(byName: green.databases)
        let snapshot = try environment.read { txn in try ChainHead.load(txn, databases).position }
        guard snapshot > 0 else { return }
        let build = LogOrderBuild(
            projection, snapshot: snapshot, scratchDirectory: scratchDirectory(projection, environment: environment),
            mappedBudget: defaultRebuildMappedLimit)
        defer { build.close() }
        try build.foldBlocking(environment, databases) { _ in }
        let sorter = build.merged()
        while true {
            let rows = try sorter.nextBatch(defaultRebuildRowsPerTransaction)
            if rows.isEmpty { break }
            try environment.write { txn in try LogOrderBuild<Projection>.write(rows, projection: projection.name, txn, view) }
        }
        let checkpoint = ProjectionCheckpoint(version: projection.version, position: snapshot, generation: green.generation)
        try environment.write { txn in try checkpoint.save(projection.name, txn, databases.meta, green: true) }
    }

    /// Where a stream-folding rebuild of `projection` spills its sort runs: a directory inside the store's.
    func scratchDirectory(_ projection: any InlineProjection) -> String {
        EventStore.scratchDirectory(projection, environment: environment)
    }

    static func scratchDirectory(_ projection: any InlineProjection, environment: Environment) -> String {
        environment.path + "/rebuild-scratch-" + projection.name
    }
}
