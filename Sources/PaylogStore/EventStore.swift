import Foundation
import LMDBKit

/// paylog's append-only event log on LMDB.
///
/// - Streams are named by id; each event has a gap-free 1-based version in its stream and a gap-free
///   1-based global position in commit order.
/// - Appends are atomic per call, checked against an ``ExpectedVersion``, idempotent by event id (durably,
///   across restarts), and acknowledged only once committed with fsync.
/// - Every event carries SHA-256 over its record (with the payload as appended, however it is stored) and the
///   previous event's hash, so ``verifyChain(progress:)`` detects any edited, removed or reordered byte.
/// - One writer thread performs every write (group commit); reads run concurrently from any task.
///
/// Open one `EventStore` per directory per process and share it.
public final class EventStore: Sendable {
    /// The directory holding the log.
    public let path: String
    let environment: Environment
    let databases: StoreDatabases
    let writer: Writer
    /// Why the views of a store opened read-only cannot be read (they are not brought up to date without writing);
    /// nil when they are current, and always for a store opened read-write.
    let unreadableViews: String?
    /// Held shared while the store is open read-write, exclusive while this process changes view generations
    /// (``ViewsLock``); nil for a store opened read-only.
    let viewsLock: ViewsLock?

    /// How long an open waits for another process's exclusive hold on the views (an open's catch-up, a rebuild)
    /// before it gives up with ``EventStoreError/viewsBusy(path:)``.
    static let viewsLockPatience = Duration.seconds(10)

    /// The LMDB options a store opens with unless given others: ``EnvironmentOptions``' defaults, with the pages
    /// the process keeps mapped held under ``defaultMappedMemoryBudget``.
    public static var defaultOptions: EnvironmentOptions {
        EnvironmentOptions(mappedMemoryBudget: defaultMappedMemoryBudget)
    }

    /// The resident file-backed memory (the log's pages mapped into the process) above which a store's environment
    /// releases them, by default: 96 MiB (``EnvironmentOptions/mappedMemoryBudget``).
    ///
    /// Every page read through LMDB's map stays in the process's resident set until released, so without a budget
    /// a process ingesting into or serving a large log grows towards the file's size: ingesting 90,000 lines into a
    /// 10 M-event log peaked at 1.6–2.3 GB, and at about 200 MiB with it (Docs/performance.md, *Mapped memory*).
    public static let defaultMappedMemoryBudget = 96 << 20

    /// The longest tag an event may declare, in UTF-8 bytes (the index's keys must stay under LMDB's key limit).
    public static var maximumTagBytes: Int { StoreKeys.maximumTagBytes }

    /// Opens (creating when needed) the log in directory `path`.
    /// - Parameters:
    ///   - options: how LMDB opens the environment; ``defaultOptions`` unless given.
    ///   - projections: views the writer keeps current inside each append's transaction; caught up
    ///     (or rebuilt, when their version changed) before `init` returns.
    ///   - payloadDictionary: a zstd dictionary (`zstd --train`) for compressing payloads. When the store does
    ///     not hold it yet, it is stored in the log (for good: the payloads compressed with it need it) and new
    ///     payloads use it; with `nil`, new payloads use the newest dictionary the store holds, and a store that
    ///     holds none stores payloads as given.
    ///
    /// With ``LMDBKit/EnvironmentOptions/readOnly``, nothing is written: the store must exist in the current log
    /// format (an older one is refused, ``EventStoreError/readOnlyNeedsMigration(format:)``); its views are read as
    /// they stand when they are current, and refused (``EventStoreError/readOnlyStore(reason:)``) when not; every
    /// append fails; `payloadDictionary` is not stored.
    ///
    /// Read-write, the store's ``ViewsLock`` is held shared until ``close()``. A process alone with the store (no
    /// other holds the lock) also deletes replaced and half-built view generations, and rebuilds a view whose code
    /// version changed; one that is not leaves the first for later and refuses the second
    /// (``EventStoreError/viewsInUse(operation:)``). An open waits up to ten seconds for another process that holds
    /// the lock exclusive, then fails with ``EventStoreError/viewsBusy(path:)``.
    ///
    /// `forRebuild`: the caller is about to rebuild every view (``rebuildProjections(chunk:rowsPerTransaction:sortMemory:mappedMemoryLimit:progress:)``),
    /// so a live view that cannot be brought up to date because a row of it is damaged is left as it stands instead
    /// of failing the open with ``EventStoreError/viewDamaged(view:reason:)``: the rebuild replaces it.
    public init(
        path: String, options: EnvironmentOptions = EventStore.defaultOptions, projections: [any InlineProjection] = [],
        payloadDictionary: [UInt8]? = nil, forRebuild: Bool = false
    ) throws(EventStoreError) {
        do {
            let environment = try Environment(path: path, options: options)
            let databases: StoreDatabases
            do {
                if options.readOnly {
                    let payloads = try EventStore.readFormat(environment)
                    databases = try StoreDatabases(environment: environment, projections: projections, payloads: payloads)
                    unreadableViews = try EventStore.attachViewsAsTheyStand(environment, databases)
                    viewsLock = nil
                } else {
                    let lock = try ViewsLock(directory: path, mode: options.fileMode)
                    let alone = try lock.tryLock(.exclusive)
                    if !alone, try !lock.lock(.shared, patience: EventStore.viewsLockPatience) {
                        throw EventStoreError.viewsBusy(path: path)
                    }
                    let payloads = try EventStore.checkFormat(environment, payloadDictionary: payloadDictionary)
                    databases = try StoreDatabases(environment: environment, projections: projections, payloads: payloads)
                    try EventStore.catchUpProjections(environment, databases, alone: alone, forRebuild: forRebuild)
                    // Converted atomically: no other process can take it exclusive in between.
                    if alone { _ = try lock.tryLock(.shared) }
                    unreadableViews = nil
                    viewsLock = lock
                }
            } catch {
                environment.close()
                throw error
            }
            self.environment = environment
            self.databases = databases
            self.writer = Writer(environment: environment, databases: databases)
            self.path = path
        } catch {
            throw .wrapping(error)
        }
    }

    deinit {
        writer.stop()
    }

    /// Finishes every queued append, then closes the LMDB environment. Later calls fail with ``EventStoreError/closed``.
    public func close() {
        writer.stop()
        environment.close()
        viewsLock?.unlock()
    }

    /// Runs `body` on the writer thread, between groups of appends, and returns its result: how imports and
    /// view rebuilds write without a second writer thread.
    func onWriterThread<R: Sendable>(_ body: @escaping @Sendable () throws -> R) async throws(EventStoreError) -> R {
        let outcome: Result<R, any Error> = await withCheckedContinuation { continuation in
            writer.submitTask { continuation.resume(returning: Result { try body() }) }
        }
        do { return try outcome.get() } catch { throw .wrapping(error) }
    }

    /// Counters of the group commits so far.
    public var writerStatistics: WriterStatistics { writer.statistics }

    /// The LMDB environment's current map size in bytes.
    public var mapSize: Int { environment.mapSize }

    /// The resident file-backed memory above which the store releases the log's mapped pages
    /// (``EnvironmentOptions/mappedMemoryBudget``); nil: the store keeps every page it read mapped.
    public var mappedMemoryBudget: Int? { environment.mappedMemoryBudget }

    /// How many times the process's budget thread has released this store's mapped pages since it opened (0 without
    /// a budget). Releases several times a second while busy mean the working set is larger than the budget: random
    /// reads then fault most of their pages back in (Docs/operations.md, *Memory*).
    public var mappedMemoryReleases: Int { environment.budgetReleases }

    /// Whether a read fault in the log's map brings in only the page read, not the kernel's usual 16 cached
    /// neighbours (``LMDBKit/Environment/mapsOnePagePerFault``): true with a budget on Linux 6.7 or later. Where
    /// false under a budget, random reads fill the budget sixteen times as fast (Docs/operations.md, *Memory*).
    public var mapsOnePagePerFault: Bool { environment.mapsOnePagePerFault }

    // MARK: Appending

    /// Appends `events` to `streamID` atomically, after checking `expected`, and returns once they are on disk.
    ///
    /// When every event id is already stored with the same content (a retry), nothing is written and the
    /// original positions are returned with ``AppendResult/wasAlreadyRecorded`` set. An id stored with other
    /// content, or an append of which only some ids are stored, fails with ``EventStoreError/idempotencyConflict(eventID:reason:)``.
    public func append(
        _ events: [NewEvent], to streamID: String, expecting expected: ExpectedVersion = .any
    ) async throws(EventStoreError) -> AppendResult {
        let request = try EventStore.validated(events, to: streamID, expecting: expected)
        let result: Result<AppendResult, EventStoreError> = await withCheckedContinuation { continuation in
            writer.submit(AppendRequest(
                streamID: request.streamID, events: request.events, expected: request.expected,
                completion: { continuation.resume(returning: $0) }))
        }
        return try result.get()
    }

    /// Appends like ``append(_:to:expecting:)``, blocking the calling thread. For tools and tests that are
    /// not async; never call it from a task on the cooperative pool.
    public func appendBlocking(
        _ events: [NewEvent], to streamID: String, expecting expected: ExpectedVersion = .any
    ) throws(EventStoreError) -> AppendResult {
        let request = try EventStore.validated(events, to: streamID, expecting: expected)
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        writer.submit(AppendRequest(
            streamID: request.streamID, events: request.events, expected: request.expected,
            completion: { result in box.set(result); done.signal() }))
        done.wait()
        return try box.get()
    }

    static func validated(
        _ events: [NewEvent], to streamID: String, expecting expected: ExpectedVersion
    ) throws(EventStoreError) -> (streamID: String, events: [NewEvent], expected: ExpectedVersion) {
        if let problem = StoreKeys.problem(with: streamID) { throw .invalidStreamID(streamID, reason: problem) }
        guard !events.isEmpty else { throw .emptyAppend(stream: streamID) }
        if events.count > 1, let repeated = events.firstRepeatedID { throw .duplicateEventInAppend(eventID: repeated) }
        for event in events {
            for tag in event.tags ?? [] {
                if let problem = StoreKeys.problem(withTag: tag) { throw .invalidTag(tag, eventID: event.id, reason: problem) }
            }
        }
        return (streamID, events, expected)
    }

    /// Runs `body` on the writer thread inside a durable write transaction, between groups of appends; returns
    /// `body`'s result once it is durable. `body` reads and appends through the ``WriteSession`` (seeing its own
    /// appends); when it throws, nothing it appended is kept.
    ///
    /// Sessions queued together share one transaction and one fsync (group commit, as appends do): each runs in a
    /// session of its own, sees what the sessions before it appended, and keeps its own outcome — when one throws,
    /// the others run again without it and commit. A group takes more sessions for about 10 ms and up to 128
    /// appended events, so an append queued behind it usually waits that long plus the last session taken (longer
    /// when a session of the group failed and the group ran again).
    ///
    /// Keep `body` short: other appends wait while it runs (ingest's batches of up to 8,192 lines hold the writer
    /// for 60–80 ms). It must have no effects outside the session and must derive what it appends from what the
    /// session reads, because it runs again from the start: when the map has to grow; when an append failed after
    /// it began writing (a projection refused its event; that append then fails at once in the new run, so the body
    /// sees the same outcome as if it had never written); when another session of its group failed (then it may
    /// read a different log, without that session's appends); and on its own when the group's transaction failed as a
    /// whole. A storage failure fails the whole session.
    public func withWriteSession<R: Sendable>(
        _ body: @escaping @Sendable (WriteSession) throws -> R
    ) async throws(EventStoreError) -> R {
        let outcome: Result<R, EventStoreError> = await withCheckedContinuation { continuation in
            writer.submitSession(SessionJob(
                run: { session in
                    let value = try body(session)
                    return { continuation.resume(returning: .success(value)) }
                },
                fail: { continuation.resume(returning: .failure($0)) }))
        }
        return try outcome.get()
    }

    // MARK: Reading

    /// Runs `body` in one read transaction, mapping LMDB failures to ``EventStoreError``.
    func reading<R>(_ body: (borrowing Transaction) throws -> R) throws(EventStoreError) -> R {
        do {
            return try environment.read(body)
        } catch {
            throw .wrapping(error)
        }
    }

    /// The last global position in the log (0 when empty).
    public func lastPosition() throws(EventStoreError) -> UInt64 {
        try reading { txn in try ChainHead.load(txn, databases).position }
    }

    /// The stream's last version, or 0 when the stream does not exist.
    public func version(of streamID: String) throws(EventStoreError) -> UInt64 {
        try reading { txn in
            try StreamTail.read(streamID, in: txn, databases: databases).version
        }
    }

    /// The last event that declared `tag` (``NewEvent/tags``), or nil when none did.
    public func taggedEvent(_ tag: String) throws(EventStoreError) -> TaggedEvent? {
        try reading { txn in try TaggedEvent.read(tag, in: txn, databases: databases) }
    }

    /// The last event that declared `tag`, read in `txn`: a transaction of this store's, such as the one
    /// ``readViews(_:)`` hands its body, so that the answer agrees with the views read beside it.
    public func taggedEvent(_ tag: String, in txn: borrowing Transaction) throws -> TaggedEvent? {
        try TaggedEvent.read(tag, in: txn, databases: databases)
    }

    /// The event at a global position, or nil.
    public func event(at position: UInt64) throws(EventStoreError) -> RecordedEvent? {
        try reading { txn in try EventStore.event(at: position, in: txn, databases) }
    }

    /// The event with id `id`, or nil.
    public func event(id: UUID) throws(EventStoreError) -> RecordedEvent? {
        try reading { txn in
            guard let position = try txn.value(for: StoreKeys.eventID(id), in: databases.ids) else {
                return nil
            }
            return try EventStore.event(at: StoreKeys.readUInt64(position), in: txn, databases)
        }
    }

    static func event(at position: UInt64, in txn: borrowing Transaction, _ databases: StoreDatabases) throws -> RecordedEvent? {
        try txn.withValue(for: StoreKeys.event(position), in: databases.events) { value in
            guard let value else { return nil }
            return try RecordCodec.decode(value, position: position, dictionaries: databases.payloads)
        }
    }

    /// Reads one stream's events in version order.
    ///
    /// - Parameters:
    ///   - from: the first version to return (forward) or the last (backward); `nil` means the stream's start
    ///     (forward) or end (backward).
    ///   - direction: forward (ascending versions) or backward.
    ///   - limit: the most events to return.
    public func readStream(
        _ streamID: String, from: UInt64? = nil, direction: ReadDirection = .forward, limit: Int = .max
    ) throws(EventStoreError) -> [RecordedEvent] {
        try reading { txn in
            try EventStore.readStream(streamID, from: from, direction: direction, limit: limit, in: txn, databases)
        }
    }

    /// ``readStream(_:from:direction:limit:)`` in `txn`.
    static func readStream(
        _ streamID: String, from: UInt64?, direction: ReadDirection, limit: Int, in txn: borrowing Transaction,
        _ databases: StoreDatabases
    ) throws -> [RecordedEvent] {
        // `versions` holds the stream's positions in chunks of 64 versions; its last chunk says where it ends.
        let tail = try StreamTail.read(streamID, in: txn, databases: databases)
        let last = tail.version
        var events: [RecordedEvent] = []
        var version: UInt64
        switch direction {
        case .forward: version = max(from ?? 1, 1)
        case .backward: version = min(from ?? last, last)
        }
        while version >= 1 && version <= last && events.count < limit {
            let (chunk, index) = StoreKeys.chunk(of: version)
            let positions = try txn.withValue(for: StoreKeys.versionsKey(streamID, chunk: chunk), in: databases.versions) { value in
                value.map { value in (0..<(value.count / 8)).map { StoreKeys.readUInt64(value, at: $0 * 8) } } ?? []
            }
            guard index < positions.count else {
                // Named by the stream's last position: the index, not a record, is what is damaged.
                throw EventStoreError.corruptRecord(
                    position: tail.position,
                    reason: "stream \(streamID) reaches version \(last) but its versions index stops before \(version)")
            }
            let indices = direction == .forward
                ? Array(index..<positions.count) : Array((0...index).reversed())
            for index in indices where events.count < limit {
                guard let event = try EventStore.event(at: positions[index], in: txn, databases) else {
                    throw EventStoreError.corruptRecord(
                        position: positions[index], reason: "indexed by stream \(streamID) but missing")
                }
                // The record says whose it is: an index pointing at another stream's event must not pass it off as
                // this stream's evidence.
                let indexedVersion = StoreKeys.firstVersion(of: chunk) + UInt64(index)
                guard event.streamID == streamID, event.version == indexedVersion else {
                    throw EventStoreError.corruptIndex(
                        name: "versions",
                        reason: "it gives position \(positions[index]) for \(streamID) version \(indexedVersion), where the "
                            + "event is \(event.streamID) version \(event.version); `paylog replay` lists every entry it gives "
                            + "wrong")
                }
                events.append(event)
            }
            version = direction == .forward
                ? StoreKeys.firstVersion(of: chunk) + StoreKeys.versionsPerChunk : StoreKeys.firstVersion(of: chunk) - 1
        }
        return events
    }

    /// Reads up to `limit` events of the whole log starting at global position `from`, in one read transaction.
    public func read(from position: UInt64 = 1, limit: Int = 1000) throws(EventStoreError) -> [RecordedEvent] {
        var events: [RecordedEvent] = []
        var names = InternedNames()
        try forEachRaw(from: position, limit: limit) { position, value in
            events.append(try RecordCodec.decode(value, position: position, dictionaries: databases.payloads, names: &names))
            return true
        }
        return events
    }

    /// Up to `limit` events from `position` on, as `txn` sees the log (a caller comparing the log with what else that
    /// snapshot holds).
    func read(from position: UInt64, limit: Int, in txn: borrowing Transaction) throws -> [RecordedEvent] {
        var events: [RecordedEvent] = []
        var names = InternedNames()
        try walkRaw(txn, from: position, limit: limit) { position, value in
            events.append(try RecordCodec.decode(value, position: position, dictionaries: databases.payloads, names: &names))
            return true
        }
        return events
    }

    /// Calls `body` with every event from global position `from` on, in order, reading `pageSize` events per
    /// read transaction so the whole log is never held in memory. `body` returns false to stop.
    public func forEach(
        from position: UInt64 = 1, pageSize: Int = 10_000, _ body: (RecordedEvent) throws -> Bool
    ) throws {
        var next = max(position, 1)
        var names = InternedNames()
        while true {
            var count = 0
            var stop = false
            try forEachRaw(from: next, limit: pageSize) { position, value in
                count += 1
                next = position + 1
                let event = try RecordCodec.decode(value, position: position, dictionaries: databases.payloads, names: &names)
                if try !body(event) { stop = true; return false }
                return true
            }
            if stop || count < pageSize { return }
        }
    }

    /// Calls `body` with the raw stored value of up to `limit` events from `from` on, in one read transaction,
    /// reading each next value ahead while `body` works on the current one
    /// (``LMDBKit/Cursor/forEachReadingAhead(limit:_:)``).
    func forEachRaw(
        from position: UInt64, limit: Int, _ body: (UInt64, UnsafeRawBufferPointer) throws -> Bool
    ) throws(EventStoreError) {
        try reading { txn in try walkRaw(txn, from: position, limit: limit, body) }
    }

    /// ``forEachRaw(from:limit:_:)``, and the chain's head as the same read transaction sees it, with the first live
    /// view whose checkpoint stands past that head (``ChainHead/viewAhead(_:_:)``).
    func forEachRawWithHead(
        from position: UInt64, limit: Int, _ body: (UInt64, UnsafeRawBufferPointer) throws -> Bool
    ) throws(EventStoreError) -> (head: ChainHead, viewAhead: (view: String, position: UInt64)?) {
        try reading { txn in
            try walkRaw(txn, from: position, limit: limit, body)
            let head = try ChainHead.load(txn, databases)
            return (head, try head.viewAhead(txn, databases))
        }
    }

    /// The walk of ``forEachRaw(from:limit:_:)`` inside `txn`.
    private func walkRaw(
        _ txn: borrowing Transaction, from position: UInt64, limit: Int, _ body: (UInt64, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        try txn.withCursor(databases.events) { cursor in
            guard try cursor.move(.atOrAfter, key: StoreKeys.event(max(position, 1))) else { return }
            _ = try cursor.forEachReadingAhead(limit: limit) { key, value in
                try body(try StoreKeys.position(ofEventKey: key), value)
            }
        }
    }

    // MARK: Verification

    /// Recomputes the hash chain from position 1, checking every record decodes, carries its own position,
    /// follows its predecessor without a gap, and hashes to the stored value; that the chain ends at the stored
    /// head; and that no live view stands past that head (a log cut short with its head rewritten to match, which
    /// would otherwise verify as a shorter intact log: ``ChainHead/viewAhead(_:_:)``). `progress` gets (events
    /// checked, head position) after each page.
    ///
    /// Another process may append while it runs (a server, an ingest): each page is read in a read transaction of its
    /// own, and the head compared with at the end is the one the last page's transaction saw, with the events it saw.
    /// (The head read before the first page was compared with the events of later snapshots, so an append between
    /// the two read as "events beyond the head": a broken chain reported on a sound store.)
    public func verifyChain(progress: ((UInt64, UInt64) -> Void)? = nil) throws(EventStoreError) -> ChainReport {
        var head = ChainHead.empty
        var viewAhead: (view: String, position: UInt64)?
        var cutShort = false
        var previous = ChainDigest.genesis
        var expected: UInt64 = 1
        var checked: UInt64 = 0
        var broken: (UInt64, String)?
        var next: UInt64 = 1
        let pageSize = 50_000
        pages: while true {
            var count = 0
            (head, viewAhead) = try forEachRawWithHead(from: next, limit: pageSize) { position, value in
                count += 1
                next = position + 1
                if let problem = EventStore.chainProblem(
                    position: position, expected: expected, value: value, previous: previous, dictionaries: databases.payloads) {
                    broken = (position, problem)
                    return false
                }
                previous = ChainDigest(unchecked: UnsafeRawBufferPointer(rebasing: value[1..<RecordCodec.headerSize]))
                expected = position + 1
                checked += 1
                return true
            }
            progress?(checked, head.position)
            if broken != nil || count < pageSize { break pages }
        }
        if broken == nil {
            if expected - 1 != head.position {
                broken = (expected, "the log ends at position \(expected - 1) but its head says \(head.position): events were removed or the head was edited")
            } else if previous != head.hash {
                broken = (head.position, "the last event's hash does not match the stored head")
            } else if let viewAhead {
                broken = (head.position + 1, ChainHead.cutShortProblem(view: viewAhead.view, checkpoint: viewAhead.position, head: head.position))
                cutShort = true
            }
        }
        return ChainReport(
            eventsChecked: checked, lastPosition: head.position, firstBrokenPosition: broken?.0, problem: broken?.1,
            headHash: broken == nil && checked > 0 ? previous.hex : nil, isCutShort: cutShort)
    }

    static func chainProblem(
        position: UInt64, expected: UInt64, value: UnsafeRawBufferPointer, previous: ChainDigest,
        dictionaries: PayloadDictionaries
    ) -> String? {
        if position != expected {
            return position > expected
                ? "positions \(expected)…\(position - 1) are missing"
                : "position \(position) appears out of order"
        }
        guard value.count >= RecordCodec.headerSize,
              value[0] == StoreKeys.recordFormatByte || value[0] == StoreKeys.compressedRecordFormatByte else {
            return "the stored value has no valid header"
        }
        let hash: ChainDigest
        do {
            hash = try RecordCodec.recomputeHash(value, position: position, previous: previous, dictionaries: dictionaries)
        } catch {
            return "\(error)"
        }
        guard hash.matches(UnsafeRawBufferPointer(rebasing: value[1..<RecordCodec.headerSize])) else {
            return "the record's bytes or hash were changed (SHA-256 does not match)"
        }
        do {
            let event = try RecordCodec.decode(value, position: position, dictionaries: dictionaries)
            if event.position != position { return "the record says position \(event.position) but is stored at \(position)" }
        } catch {
            return "\(error)"
        }
        return nil
    }

    /// Runs `body` in a read transaction with the inline projections' databases: how views are queried. The
    /// databases are those live in the transaction's snapshot, so a view swapped in by a rebuild meanwhile is
    /// never read half-built, and the view read always agrees with the log read in the same transaction.
    public func readViews<R>(_ body: (borrowing Transaction, ProjectionDatabases) throws -> R) throws -> R {
        if let unreadableViews { throw EventStoreError.readOnlyStore(reason: unreadableViews) }
        do {
            return try environment.read { txn in try body(txn, try databases.views.live(in: txn, meta: databases.meta)) }
        } catch let error as LMDBError where error == .closed {
            // A closed store, not a damaged view: callers tell the two apart (a view's damage says to rebuild it).
            throw EventStoreError.closed
        }
    }

    /// Opens every inline projection's views and brings them up to the head: the live view from its checkpoint
    /// when its code version is unchanged; otherwise a new generation is built blue/green beside the old one and
    /// swapped in (see ``rebuildProjections(chunk:sortMemory:mappedMemoryLimit:progress:)``). When `alone` (this
    /// process holds the ``ViewsLock`` exclusive), generations older than the live one are deleted (no other
    /// transaction of this process can be using them yet) and so is a half-built one that a rebuild stopped by a
    /// crash left; when not, another process may be reading them, so they are left for an open that is alone, and a
    /// view whose version changed is refused (``EventStoreError/viewsInUse(operation:)``): rebuilding it would swap a
    /// generation in under the other process.
    ///
    /// A live view whose catch-up fails with anything but a storage error (a row its projection cannot read) is
    /// damaged: the open fails with ``EventStoreError/viewDamaged(view:reason:)``, or, `forRebuild`, goes on with
    /// the view as it stands.
    private static func catchUpProjections(
        _ environment: Environment, _ databases: StoreDatabases, alone: Bool, forRebuild: Bool
    ) throws {
        for projection in databases.projections {
            let checkpoint = try environment.write { txn -> ProjectionCheckpoint in
                let stored = try ProjectionCheckpoint.load(projection.name, txn, databases.meta)
                    ?? ProjectionCheckpoint(version: projection.version, position: 0, generation: 0)
                // A view this release rebuilds, standing past the head: the trace of a log cut short
                // (``ChainHead/viewAhead(_:_:)``), which the new generation, live at the head, would erase. Refused
                // before this transaction writes anything.
                if stored.version != projection.version {
                    let head = try ChainHead.load(txn, databases).position
                    guard stored.position <= head else {
                        throw EventStoreError.logCutShort(view: projection.name, checkpoint: stored.position, head: head)
                    }
                }
                var set = ViewRegistry.ViewSet(generation: stored.generation, databases: [:])
                for name in projection.databaseNames {
                    set.databases[name] = try txn.openDatabase(
                        ViewRegistry.physicalName(name, generation: stored.generation), create: true)!
                    for older in 0..<stored.generation where alone {
                        if let stale = try txn.openDatabase(ViewRegistry.physicalName(name, generation: older), create: false) {
                            try txn.deleteDatabase(stale)
                        }
                    }
                }
                // A rebuild interrupted by a crash starts again from scratch. (Not alone, the green generation may be
                // another process's rebuild in progress: only an older release rebuilds without the views lock.)
                if alone, let green = try ProjectionCheckpoint.load(projection.name, txn, databases.meta, green: true) {
                    for name in projection.databaseNames {
                        if let partial = try txn.openDatabase(ViewRegistry.physicalName(name, generation: green.generation), create: false) {
                            try txn.deleteDatabase(partial)
                        }
                    }
                    _ = try txn.delete(ProjectionCheckpoint.key(projection.name, green: true), in: databases.meta)
                }
                try stored.save(projection.name, txn, databases.meta)
                databases.views.setActive(projection.name, set)
                return stored
            }
            if checkpoint.version == projection.version {
                do {
                    while try catchUpLive(projection, environment, databases) {}
                } catch let error where !(error is EventStoreError) && !(error is LMDBError) {
                    if !forRebuild { throw EventStoreError.viewDamaged(view: projection.name, reason: "\(error)") }
                }
            } else {
                guard alone else {
                    throw EventStoreError.viewsInUse(
                        operation: "rebuild the \(projection.name) view, which this release changed (view version "
                            + "\(checkpoint.version) → \(projection.version)), as opening the store does")
                }
                try startGreen(projection, environment: environment, databases: databases)
                if let folding = projection as? any StreamFoldingProjection {
                    try buildGreenByFolding(folding, environment: environment, databases: databases)
                }
                while try !catchUpGreen(projection, environment: environment, databases: databases, chunk: 10_000) {}
            }
        }
    }

    /// Applies up to 10,000 events after the live view's checkpoint. Returns true while more remain.
    private static func catchUpLive(_ projection: any InlineProjection, _ environment: Environment, _ databases: StoreDatabases) throws -> Bool {
        guard let active = databases.views.sets(of: projection.name).active else { return false }
        let view = ProjectionDatabases(byName: active.databases)
        return try environment.write { txn in
            var checkpoint = try ProjectionCheckpoint.load(projection.name, txn, databases.meta)!
            let head = try ChainHead.load(txn, databases).position
            guard checkpoint.position < head else { return false }
            // Never past the head, even where events lie beyond it (a head rolled back): a checkpoint past the head is
            // the trace of a log cut short (``ChainHead/viewAhead(_:_:)``), never paylog's doing.
            let applied = try applyRange(
                projection, from: checkpoint.position + 1, through: head, limit: 10_000, txn, databases, view)
            // No event left below the head: it names positions the log does not hold (events removed from the log's
            // end, or the head edited; `paylog verify` says which). The view stands at the log's end; chasing the head
            // would never end, and a store that cannot open cannot be verified.
            guard applied > checkpoint.position else { return false }
            checkpoint.position = applied
            try checkpoint.save(projection.name, txn, databases.meta)
            return checkpoint.position < head
        }
    }

    /// Applies up to `limit` events from `position` on, none past `through`, to `view`, as one batch; returns the last
    /// position applied. `through` is the chain head: where events lie past it (a head rolled back), a view brought past
    /// it would stand where only a log cut short leaves a view (``ChainHead/viewAhead(_:_:)``).
    static func applyRange(
        _ projection: any InlineProjection, from position: UInt64, through: UInt64, limit: Int, _ txn: borrowing Transaction,
        _ databases: StoreDatabases, _ view: ProjectionDatabases
    ) throws -> UInt64 {
        var events: [RecordedEvent] = []
        events.reserveCapacity(min(limit, 65_536))
        var names = InternedNames()
        try txn.withCursor(databases.events) { cursor in
            var found = try cursor.move(.atOrAfter, key: StoreKeys.event(position))
            while found && events.count < limit {
                let event = try cursor.withCurrent { key, value -> RecordedEvent? in
                    let at = try StoreKeys.position(ofEventKey: key)
                    guard at <= through else { return nil }
                    return try RecordCodec.decode(value, position: at, dictionaries: databases.payloads, names: &names)
                }
                guard let event else { break }
                events.append(event)
                found = try cursor.move(.next)
            }
        }
        try projection.apply(events, in: txn, databases: view)
        return events.last?.position ?? position - 1
    }

    /// Reads the log format from `meta` before anything else is opened: writes the current one into a new store,
    /// migrates an older one (``FormatMigration``), refuses an unknown one; then loads the payload dictionaries,
    /// storing `payloadDictionary` when it is new (``PayloadDictionaries``). One write transaction, so a failed
    /// migration leaves the store exactly as it was.
    private static func checkFormat(_ environment: Environment, payloadDictionary: [UInt8]?) throws -> PayloadDictionaries {
        try environment.write { txn in
            guard let meta = try txn.openDatabase(StoreDatabases.metaName, create: true) else {
                throw EventStoreError.migrationFailed(from: 0, reason: "the `meta` database cannot be created")
            }
            let format = try StoredFormat.read(txn, meta: meta)
            // A damaged head stops the open here, before any of its transactions writes (views' generations deleted).
            _ = try ChainHead.load(txn, meta: meta)
            if let format, format != StoreKeys.currentFormat {
                guard (StoreKeys.oldestMigratableFormat..<StoreKeys.currentFormat).contains(format) else {
                    throw EventStoreError.unsupportedFormat(found: format, supported: StoreKeys.currentFormat)
                }
                // Format 1 → 2 rewrites an index, never `events`; 2 → 3 changes nothing stored (format 3 only adds
                // compressed records and the dictionaries they need); 3 → 4 deletes the `heads` index; 4 → 5
                // changes nothing stored (format 5 adds records declaring tags, and `tag-index`, created empty when the
                // store's databases are opened: no earlier record declares any).
                if format == 1 { try FormatMigration.moveStreamIndex(txn) }
                try FormatMigration.dropHeads(txn)
            }
            if format != StoreKeys.currentFormat {
                let current = StoreKeys.currentFormat
                try txn.put(
                    [UInt8(current >> 24), UInt8(current >> 16 & 0xff), UInt8(current >> 8 & 0xff), UInt8(current & 0xff)],
                    for: StoreKeys.format, in: meta)
            }
            return try PayloadDictionaries.open(given: payloadDictionary, in: txn, meta: meta)
        }
    }
}
