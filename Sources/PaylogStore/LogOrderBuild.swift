import Dispatch
import Foundation
import LMDBKit
import Synchronization

/// One rebuild of a ``StreamFoldingProjection``'s green view up to a snapshot position, reading the log in
/// log order.
///
/// The log is split into equal ranges of positions, a few per thread (``FoldPartition``); `parts` threads take
/// the ranges in order as they finish the last, read each sequentially and fold the streams that begin in it, so
/// the threads share nothing but the next range's number while they run. Their rows go to one ``IndexRowSorter``
/// per thread; ``merged()`` merges them all into key order for appending.
///
/// Why more ranges than threads: with one range each, the threads finished up to half a second apart on the
/// 1 M bench log (the parts of a log do not cost the same to fold, and a shared machine does not give both
/// threads the same share), leaving one core idle. A range that is not the last costs the streams still open at
/// its end folded again on their own (a few hundred random reads in a payment log), so ranges are not cut below
/// ``minimumRangeEvents``.
///
/// Why log order: a payment's events sit close together in the log (its day), so each stream is folded in
/// memory while the read passes over it, and the log is read front to back once. Reading stream by stream
/// instead (through the `streams` index) makes every event a random read over the whole log, which grew slower
/// than linear with the log and mapped all of it into the process (see Docs/performance.md).
///
/// Memory: per thread, the open streams (at most `maximumOpen`) and its sorter's share of `sortMemory`. The
/// pages of the log it reads count towards the resident set too; with a `mappedBudget`, whenever the process's
/// resident file-backed memory passes it (checked after every 32 new pages of the log read, or 32 random
/// lookups), each thread releases the part of the map holding the log values it read since its last release —
/// pages not needed again — and the whole map if that was not enough.
///
/// `@unchecked Sendable`: during the fold each thread uses only its own sorter and the ranges it took through
/// the shared counter; everything else is used by one caller at a time.
final class LogOrderBuild<Projection: StreamFoldingProjection>: @unchecked Sendable {
    /// The ranges, taken by the threads in order.
    let partitions: [FoldPartition]
    let snapshot: UInt64
    /// Ranges cut per thread.
    static var rangesPerPart: Int { 4 }
    /// The fewest events a range is cut to, when the log allows more than one per thread.
    static var minimumRangeEvents: UInt64 { 100_000 }
    private let sorters: [IndexRowSorter]
    private let mappedBudget: Int?
    /// The most memory the table of stream ends (``StreamEnds``) may take; past it, each stream is looked up.
    private let streamEndsBytes: Int
    /// The default of `streamEndsBytes`: room for about 5.8 M streams.
    static var defaultStreamEndsBytes: Int { 64 << 20 }

    /// A build of `projection` up to `snapshot` on `parts` threads; `ranges` cuts the log into that many ranges
    /// (nil: ``rangesPerPart`` per thread, none under ``minimumRangeEvents`` unless that leaves fewer than `parts`).
    init(
        _ projection: Projection, snapshot: UInt64, scratchDirectory: String, parts: Int = 2, ranges: Int? = nil,
        sortMemory: Int = 48 << 20,
        maximumOpen: Int = 65_536, mappedBudget: Int? = nil, streamEndsBytes: Int = LogOrderBuild.defaultStreamEndsBytes
    ) {
        precondition(parts >= 1, "a build needs at least one part")
        self.snapshot = snapshot
        self.mappedBudget = mappedBudget
        self.streamEndsBytes = streamEndsBytes
        // Runs left by a rebuild that crashed are of no use: start clean.
        try? FileManager.default.removeItem(atPath: scratchDirectory)
        let sorters = (0..<parts).map { part in
            IndexRowSorter(
                projection: projection.name, databases: projection.databaseNames, directory: scratchDirectory,
                runPrefix: "part\(part)", memoryLimit: max(sortMemory / parts, 1))
        }
        self.sorters = sorters
        let count = ranges
            ?? min(parts * LogOrderBuild.rangesPerPart, max(parts, Int(clamping: snapshot / LogOrderBuild.minimumRangeEvents)))
        partitions = LogOrderBuild.ranges(of: snapshot, parts: count).map { range in
            FoldPartition(
                projection.makeFolder(), range: range, snapshot: snapshot, maximumOpen: maximumOpen, mappedBudget: mappedBudget)
        }
    }

    /// `1...snapshot` cut into at most `parts` ranges of nearly equal length (fewer for a log shorter than
    /// `parts`; none for an empty one).
    static func ranges(of snapshot: UInt64, parts: Int) -> [ClosedRange<UInt64>] {
        let count = UInt64(max(1, min(parts, Int(clamping: snapshot))))
        guard snapshot > 0 else { return [] }
        return (0..<count).map { part in
            (part * snapshot / count + 1)...((part + 1) * snapshot / count)
        }
    }

    /// Events folded, over all partitions.
    var folded: UInt64 { partitions.reduce(0) { $0 + $1.folded } }

    /// Runs every partition on its own thread and waits for all; the first error wins. For callers that may
    /// block their thread (the rebuild at open).
    func foldBlocking(_ environment: Environment, _ databases: StoreDatabases, progress: @Sendable (UInt64) -> Void) throws {
        let sweep = startPrefetch(environment)
        defer { sweep?.stop() }
        let ends = try readStreamEnds(environment, databases)
        let failure = Mutex<(any Error)?>(nil)
        let turns = Turns()
        DispatchQueue.concurrentPerform(iterations: sorters.count) { part in
            do {
                try runTurns(part, turns, environment, databases, ends: ends, progress: progress)
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Runs every partition as a task of its own (one per core) and waits for all. Returns how long reading the
    /// stream ends and the fold itself took (``RebuildTimings``).
    func fold(
        _ environment: Environment, _ databases: StoreDatabases, progress: @escaping @Sendable (UInt64) -> Void
    ) async throws -> (streamEnds: Duration, fold: Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let sweep = startPrefetch(environment)
        defer { sweep?.stop() }
        let ends = try readStreamEnds(environment, databases)
        let endsRead = clock.now
        let turns = Turns()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for part in sorters.indices {
                group.addTask { try self.runTurns(part, turns, environment, databases, ends: ends, progress: progress) }
            }
            try await group.waitForAll()
        }
        return (endsRead - start, clock.now - endsRead)
    }

    /// What the threads of one fold share: the next range to take, the events read so far, and whether one
    /// failed (the others then stop taking ranges).
    private final class Turns: Sendable {
        let next = Atomic<Int>(0)
        let read = Atomic<UInt64>(0)
        let failed = Atomic<Bool>(false)
    }

    /// One thread's part of the fold: takes the next range until none is left, folding into sorter `part`, then
    /// sorts that sorter's rows still in memory (on this thread, rather than one after the other in
    /// ``merged()``). Thread 0 reports the events read by all.
    private func runTurns(
        _ part: Int, _ turns: Turns, _ environment: Environment, _ databases: StoreDatabases, ends: StreamEnds?,
        progress: @Sendable (UInt64) -> Void
    ) throws {
        do {
            while !turns.failed.load(ordering: .relaxed) {
                let index = turns.next.add(1, ordering: .relaxed).oldValue
                guard index < partitions.count else { break }
                try partitions[index].run(environment, databases, ends: ends, sorter: sorters[part]) { count in
                    let read = turns.read.add(count, ordering: .relaxed).newValue
                    if part == 0 { progress(read) }
                }
            }
        } catch {
            turns.failed.store(true, ordering: .relaxed)
            throw error
        }
        sorters[part].sortInMemoryRows()
    }

    /// Starts reading the log file into the page cache in file order when it fits (``LogPrefetch``): the `versions`
    /// walk and the fold then find most pages cached instead of reading each from disk.
    private func startPrefetch(_ environment: Environment) -> LogPrefetch? {
        LogPrefetch.start(path: environment.path + "/data.mdb")
    }

    /// Where every stream ends, read from `versions` once (nil when the table would be over `streamEndsBytes`).
    private func readStreamEnds(_ environment: Environment, _ databases: StoreDatabases) throws -> StreamEnds? {
        guard streamEndsBytes > 0 else { return nil }
        return try StreamEnds.read(
            environment, databases, snapshot: snapshot, maximumBytes: streamEndsBytes, mappedBudget: mappedBudget)
    }

    /// The sorter holding every partition's rows, ready to merge. Call once, after the fold.
    func merged() -> IndexRowSorter {
        for sorter in sorters.dropFirst() { sorters[0].absorb(sorter) }
        return sorters[0]
    }

    /// Removes the sort runs.
    func close() {
        for sorter in sorters { sorter.close() }
    }

    /// Appends `rows` (in key order per database) to the green view, each run of rows for one database through one
    /// cursor: it stays on the database's last page between appends
    /// (``LMDBKit/Cursor/put(bytes:forKeyBytes:append:)``), where a put of its own would descend from the root for
    /// every row.
    static func write(
        _ rows: MergedRows, projection: String, _ txn: borrowing Transaction, _ view: ProjectionDatabases
    ) throws {
        // The database handles, looked up once per batch rather than by name per row.
        let databases = rows.names.map { view[$0] }
        var start = 0
        while start < rows.count {
            let database = rows.database(at: start)
            var end = start + 1
            while end < rows.count && rows.database(at: end) == database { end += 1 }
            try txn.withCursor(databases[database]) { cursor in
                for index in start..<end {
                    let failure = rows.withRow(at: index) { _, key, value -> LMDBError? in
                        do throws(LMDBError) {
                            try cursor.put(bytes: value, forKeyBytes: key, append: true)
                            return nil
                        } catch {
                            return error
                        }
                    }
                    guard let failure else { continue }
                    guard failure.isKeyExists else { throw failure }
                    let key = rows.withRow(at: index) { _, key, _ in String(decoding: key, as: UTF8.self) }
                    throw EventStoreError.rebuildFailed(
                        projection: projection, reason: "key \(key) of \(rows.names[database]) came out of key order")
                }
            }
            start = end
        }
    }
}
