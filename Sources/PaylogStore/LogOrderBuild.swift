import Dispatch
import Foundation
import LMDBKit
import Synchronization

/// One rebuild of a ``StreamFoldingProjection``'s green view up to a snapshot position, reading the log in
/// log order.
///
/// The log is split into `parts` equal ranges of positions, one per thread (``FoldPartition``); each thread reads
/// its range sequentially and folds the streams that begin in it, so the threads share nothing while they run.
/// Their rows go to one ``IndexRowSorter`` each; ``merged()`` merges them all into key order for appending.
///
/// Why log order: a payment's events sit close together in the log (its day), so each stream is folded in
/// memory while the read passes over it, and the log is read front to back once. Reading stream by stream
/// instead (through the `streams` index) makes every event a random read over the whole log, which grew slower
/// than linear with the log and mapped all of it into the process (see Docs/performance.md).
///
/// Memory: per thread, the open streams (at most `maximumOpen`) and its sorter's share of `sortMemory`. The
/// pages of the log it reads count towards the resident set too; with a `mappedBudget`, whenever the process's
/// resident file-backed memory passes it (checked every 64 events), each thread releases the part of the map
/// holding the log values it read since its last release — pages not needed again — and the whole map if that
/// was not enough.
final class LogOrderBuild<Projection: StreamFoldingProjection> {
    /// The partitions, one per thread.
    let partitions: [FoldPartition<Projection>]
    let snapshot: UInt64
    private let sorters: [IndexRowSorter]
    private let mappedBudget: Int?
    /// The most memory the table of stream ends (``StreamEnds``) may take; past it, each stream is looked up.
    private let streamEndsBytes: Int
    /// The default of `streamEndsBytes`: room for about 5.8 M streams.
    static var defaultStreamEndsBytes: Int { 64 << 20 }

    init(
        _ projection: Projection, snapshot: UInt64, scratchDirectory: String, parts: Int = 2, sortMemory: Int = 48 << 20,
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
        partitions = LogOrderBuild.ranges(of: snapshot, parts: parts).enumerated().map { part, range in
            FoldPartition(
                projection, range: range, snapshot: snapshot, sorter: sorters[part], maximumOpen: maximumOpen,
                mappedBudget: mappedBudget)
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
        let partitions = partitions
        DispatchQueue.concurrentPerform(iterations: partitions.count) { part in
            do {
                try partitions[part].run(environment, databases, ends: ends) { position in if part == 0 { progress(position) } }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Runs every partition as a task of its own (one per core) and waits for all.
    func fold(_ environment: Environment, _ databases: StoreDatabases, progress: @escaping @Sendable (UInt64) -> Void) async throws {
        let sweep = startPrefetch(environment)
        defer { sweep?.stop() }
        let ends = try readStreamEnds(environment, databases)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for partition in partitions {
                group.addTask {
                    let first = partition.range.lowerBound == 1
                    try partition.run(environment, databases, ends: ends) { position in if first { progress(position) } }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Starts reading the log file into the page cache in file order when it fits (``LogPrefetch``): the `heads`
    /// walk and the fold then find most pages cached instead of reading each from disk.
    private func startPrefetch(_ environment: Environment) -> LogPrefetch? {
        LogPrefetch.start(path: environment.path + "/data.mdb")
    }

    /// Where every stream ends, read from `heads` once (nil when the table would be over `streamEndsBytes`).
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

    /// Appends `rows` (in key order per database) to the green view.
    static func write(_ rows: MergedRows, projection: String, _ txn: borrowing Transaction, _ view: ProjectionDatabases) throws {
        // The database handles, looked up once per batch rather than by name per row.
        let databases = rows.names.map { view[$0] }
        for index in 0..<rows.count {
            let (database, failure) = rows.withRow(at: index) { database, key, value -> (Int, LMDBError?) in
                do throws(LMDBError) {
                    try txn.put(bytes: value, forKeyBytes: key, in: databases[database], append: true)
                    return (database, nil)
                } catch {
                    return (database, error)
                }
            }
            guard let failure else { continue }
            guard failure.isKeyExists else { throw failure }
            let key = rows.withRow(at: index) { _, key, _ in String(decoding: key, as: UTF8.self) }
            throw EventStoreError.rebuildFailed(
                projection: projection, reason: "key \(key) of \(rows.names[database]) came out of key order")
        }
    }
}
