import Foundation
import LMDBKit

/// One stream-order rebuild of a ``StreamFoldingProjection``'s green view, up to a snapshot position.
///
/// The log is read through the `streams` index in stream-id order, a batch of whole streams per read
/// transaction (events after the snapshot are left for the log-order catch-up that follows). Each stream is
/// folded; its ordered rows are appended to the green databases (`MDB_APPEND`), its indexed rows go to an
/// ``IndexRowSorter`` and are appended, merged, once every stream is folded.
///
/// Memory: the process's own (anonymous) memory is bounded by the batch size and the sorter's limit. The pages
/// of the memory map it reads count towards the resident set too; they are the kernel's page cache, shared and
/// reclaimable, and by default stay mapped (reading a stream's events is random access over the whole log, and
/// re-faulting them after a release costs more than the whole fold). With a `mappedBudget`, the map is released
/// (``LMDBKit/Environment/releaseMappedPages()``) whenever the process's resident file-backed memory passes it.
final class StreamOrderBuild {
    /// The most events one batch folds: one read transaction, one write transaction for its ordered rows.
    static let largestBatch = 8_192
    /// Events folded between two looks at the resident file-backed memory, when there is a budget.
    static let releaseCheckInterval = 512
    /// The last position folded: the log's head when the build began.
    let snapshot: UInt64
    /// Events folded so far.
    private(set) var folded: UInt64 = 0
    private var after: [UInt8]?
    private var exhausted = false
    let sorter: IndexRowSorter
    /// The resident file-backed memory above which the map's pages are released; nil: never.
    let mappedBudget: Int?

    init(
        snapshot: UInt64, scratchDirectory: String, sortMemory: Int = 48 << 20,
        mappedBudget: Int? = nil
    ) {
        self.mappedBudget = mappedBudget
        self.snapshot = snapshot
        // Runs left by a rebuild that crashed are of no use: start clean.
        try? FileManager.default.removeItem(atPath: scratchDirectory)
        sorter = IndexRowSorter(directory: scratchDirectory, memoryLimit: sortMemory)
    }

    /// The next whole streams to fold (about `maximumEvents` events), found by walking the `streams` index in
    /// one read transaction; nil once the index was read to its end.
    func nextPlan(_ environment: Environment, _ databases: StoreDatabases, maximumEvents: Int) throws -> StreamPlan? {
        guard !exhausted else { return nil }
        let (streams, next) = try environment.read { [after, snapshot] txn in
            try txn.withCursor(databases.streams) { cursor in
                try StreamOrderBuild.positions(cursor, after: after, through: snapshot, maximumEvents: maximumEvents)
            }
        }
        after = next
        if next == nil { exhausted = true }
        return StreamPlan(streams: streams)
    }

    /// Reads and folds the streams of `plan` in one read transaction. Runs on any thread, several at once.
    static func fold(
        _ plan: StreamPlan, _ projection: any StreamFoldingProjection, _ environment: Environment, _ databases: StoreDatabases,
        mappedBudget: Int?
    ) throws -> ViewRows {
        try environment.read { txn in
            var rows = ViewRows()
            var sinceRelease = 0
            for stream in plan.streams {
                if let mappedBudget, sinceRelease >= releaseCheckInterval {
                    environment.releaseMappedPages(ifResidentFileBytesAbove: mappedBudget)
                    sinceRelease = 0
                }
                sinceRelease += stream.positions.count
                var events: [RecordedEvent] = []
                events.reserveCapacity(stream.positions.count)
                for position in stream.positions {
                    guard let event = try EventStore.event(at: position, in: txn, databases) else {
                        throw EventStoreError.corruptRecord(
                            position: position, reason: "indexed by stream \(String(decoding: stream.id, as: UTF8.self)) but missing")
                    }
                    events.append(event)
                }
                try projection.fold(stream: events, into: &rows)
            }
            return rows
        }
    }

    /// Takes the rows of the next plan in order: the indexed ones go to the sorter; returns the ordered ones,
    /// to append.
    func accept(_ rows: ViewRows, of plan: StreamPlan) throws -> [ViewRow] {
        folded += UInt64(plan.events)
        for row in rows.indexed { try sorter.add(row) }
        return rows.ordered
    }

    /// Appends `rows` (in key order per database) to the green view.
    static func write(_ rows: [ViewRow], projection: String, _ txn: borrowing Transaction, _ view: ProjectionDatabases) throws {
        for row in rows {
            do {
                try txn.put(row.value, for: row.key, in: view[row.database], append: true)
            } catch {
                guard error.isKeyExists else { throw error }
                throw EventStoreError.rebuildFailed(
                    projection: projection,
                    reason: "key \(String(decoding: row.key, as: UTF8.self)) of \(row.database) came out of key order; "
                        + "a fold must append keys that rise with the stream id")
            }
        }
    }

    /// The positions of the next whole streams in the `streams` index (keys: stream id · NUL · version, 8 bytes
    /// big-endian; values: the position), up to `snapshot`, streams with none left out; and the key to continue
    /// after, or nil at the end of the index.
    static func positions(
        _ cursor: borrowing Cursor, after: [UInt8]?, through snapshot: UInt64, maximumEvents: Int
    ) throws -> (streams: [StreamPlan.Stream], next: [UInt8]?) {
        var streams: [StreamPlan.Stream] = []
        var count = 0
        var found = after == nil ? try cursor.move(.first) : try cursor.move(.atOrAfter, key: after)
        while found {
            let (key, position) = cursor.withCurrent { key, value in (Array(key), StoreKeys.readUInt64(value)) }
            let id = Array(key.prefix(max(key.count - 9, 0)))
            if streams.last?.id != id {
                if count >= maximumEvents, let last = streams.last {
                    return (streams.filter { !$0.positions.isEmpty }, last.id + [0] + [UInt8](repeating: 0xff, count: 8))
                }
                streams.append(StreamPlan.Stream(id: id, positions: []))
            }
            if position <= snapshot {
                streams[streams.count - 1].positions.append(position)
                count += 1
            }
            found = try cursor.move(.next)
        }
        return (streams.filter { !$0.positions.isEmpty }, nil)
    }
}
