import Foundation
import LMDBKit

/// Rebuilds the store's inline projections from the log into a scratch LMDB environment and compares the
/// result with the live views: the heart of `paylog replay`. The store's `tag-index` is rebuilt beside them from
/// the tags the records declare, and compared in the same way.
///
/// The scratch environment is opened without fsync (it is rebuildable and thrown away), views are written in
/// large transactions, and the log is read in pages, so memory stays flat however long the log is.
///
/// Another process may append meanwhile (`paylog replay` beside a server): the live views, the tag index and the
/// stream index are read in one read transaction, and the rebuild folds exactly the events up to the head that
/// transaction saw, so both sides stand at the same position. (Read apart, the appends between the rebuild's last
/// page and the live views read as payments "missing in rebuild": drift reported on a sound store.)
public struct ProjectionRebuild: Sendable {
    /// Events applied: every event up to ``position``.
    public var events: UInt64
    /// The head the comparison stands at: the last position folded, and the position the live views were read at.
    public var position: UInt64
    /// Differences between the rebuilt and the live views, at most `differenceLimit`.
    public var differences: [ViewDifference]
    /// How many differences there were in all.
    public var differenceCount: Int
    /// The rows of each live view database at ``position``, by name.
    public var liveRowCounts: [String: Int]
    /// How many positions the stream index held at ``position`` (``EventStore/streamIndexEntryCount()``).
    public var streamIndexEntries: UInt64

    /// Rebuilds every inline projection of `store` into a fresh scratch directory, compares, removes it.
    ///
    /// - Parameters:
    ///   - eachEvent: called with every event after the projections applied it (the checker hooks in here).
    ///   - progress: called now and then with (events done, events in the log).
    public static func run(
        _ store: EventStore, scratchDirectory: String? = nil, differenceLimit: Int = 100,
        eachEvent: (RecordedEvent) throws -> Void = { _ in },
        progress: (UInt64, UInt64) -> Void = { _, _ in }
    ) throws -> ProjectionRebuild {
        let directory = scratchDirectory ?? (NSTemporaryDirectory() + "paylog-replay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let projections = store.databases.projections
        let names = projections.flatMap(\.databaseNames)
        let scratch = try Environment(
            path: directory,
            options: EnvironmentOptions(initialMapSize: max(store.environment.mapSize, 64 << 20), maxDatabases: UInt32(names.count + 3), noSync: true))
        defer { scratch.close() }
        var byName: [String: Database] = [:]
        for name in names { byName[name] = try scratch.openDatabase(name) }
        let tags = try scratch.openDatabase(StoreDatabases.tagsName)
        let scratchDatabases = ProjectionDatabases(byName: byName)
        var total = try store.lastPosition()
        var applied: UInt64 = 0
        var next: UInt64 = 1
        let pageSize = 20_000
        /// Applies `events` to the scratch views and tag index, in one write transaction.
        func apply(_ events: [RecordedEvent]) throws {
            guard !events.isEmpty else { return }
            try scratch.write { txn in
                for projection in projections { try projection.apply(events, in: txn, databases: scratchDatabases) }
                for event in events {
                    guard let declared = event.tags else { continue }
                    let target = TaggedEvent(streamID: event.streamID, position: event.position).encoded
                    for tag in declared { try txn.put(target, for: Array(tag.utf8), in: tags) }
                }
            }
        }
        /// Folds the events from `next` on, through `last` (nil: to the end of the log as the pages find it).
        func fold(through last: UInt64?) throws {
            while last.map({ next <= $0 }) ?? true {
                let limit = last.map { Int(min(UInt64(pageSize), $0 - next + 1)) } ?? pageSize
                let page = try store.read(from: next, limit: limit)
                if page.isEmpty { break }
                try apply(page)
                for event in page { try eachEvent(event) }
                applied += UInt64(page.count)
                next = page.last!.position + 1
                progress(applied, max(total, applied))
                if page.count < limit { break }
            }
        }
        try fold(through: nil)
        // The comparison reads the live side in one snapshot, and the rebuild must stand at that snapshot's head: the
        // events appended since the pages ended are read in it too and folded before comparing. When more than a page
        // came meanwhile (a fast ingest beside the replay), they are folded outside it first, and a new snapshot taken.
        var differences: [ViewDifference] = []
        var count = 0
        func report(_ difference: ViewDifference) {
            count += 1
            if differences.count < differenceLimit { differences.append(difference) }
        }
        // Set when folding up to the head found no events to fold: the head names positions the log does not hold
        // (events removed from its end, or the head edited: the chain check says which), so compare as it stands.
        var stalled = false
        while true {
            let outcome = try store.readViews { txn, databases -> Snapshot in
                let head = try ChainHead.load(txn, store.databases).position
                guard stalled || head < next || head - next < UInt64(pageSize) else { return .behind(head: head) }
                let late = head < next ? [] : try store.read(from: next, limit: Int(min(head - next + 1, UInt64(pageSize))), in: txn)
                try apply(late)
                var rows: [String: Int] = [:]
                for name in names {
                    rows[name] = try compare(name, live: txn, databases[name], scratch: scratch, scratchDatabase: byName[name]!, report: report)
                }
                _ = try compare(StoreDatabases.tagsName, live: txn, store.databases.tags, scratch: scratch, scratchDatabase: tags, report: report)
                return .compared(late: late, rows: rows, streamIndexEntries: try store.streamIndexEntryCount(in: txn))
            }
            switch outcome {
            case .behind(let head):
                total = max(total, head)
                let before = next
                try fold(through: head)
                stalled = next == before
            case .compared(let late, let rows, let streamIndexEntries):
                // Judged after the snapshot is let go: `eachEvent` may read the store (one transaction at a time).
                for event in late { try eachEvent(event) }
                applied += UInt64(late.count)
                if let last = late.last { next = last.position + 1 }
                progress(applied, max(total, applied))
                return ProjectionRebuild(
                    events: applied, position: next - 1, differences: differences, differenceCount: count,
                    liveRowCounts: rows, streamIndexEntries: streamIndexEntries)
            }
        }
    }

    /// What one try at the comparison's snapshot gave.
    private enum Snapshot {
        /// More than a page was appended since the rebuild's pages ended: fold up to `head`, then try again.
        case behind(head: UInt64)
        /// Compared at the snapshot's head, after folding `late`, the events appended since the pages ended; `rows`:
        /// each live view's row count.
        case compared(late: [RecordedEvent], rows: [String: Int], streamIndexEntries: UInt64)
    }

    /// Walks the live database in `txn` and the rebuilt one in key order, a row at a time, and reports every key whose
    /// value differs or exists on one side only. Returns the live rows' count.
    static func compare(
        _ name: String, live txn: borrowing Transaction, _ liveDatabase: Database, scratch: Environment,
        scratchDatabase: Database, report: (ViewDifference) -> Void
    ) throws -> Int {
        func text(_ key: [UInt8]) -> String { String(validating: key, as: UTF8.self) ?? key.map { String(format: "%02x", $0) }.joined() }
        return try txn.withCursor(liveDatabase) { live in
            try scratch.read { rebuiltTxn in
                try rebuiltTxn.withCursor(scratchDatabase) { rebuilt in
                    var liveRows = 0
                    var liveRow = try live.move(.first) ? live.current() : nil
                    var rebuiltRow = try rebuilt.move(.first) ? rebuilt.current() : nil
                    while liveRow != nil || rebuiltRow != nil {
                        if let l = liveRow, rebuiltRow.map({ l.key.lexicographicallyPrecedes($0.key) }) ?? true {
                            report(ViewDifference(database: name, key: text(l.key), kind: "missing in rebuild"))
                            liveRows += 1
                            liveRow = try live.move(.next) ? live.current() : nil
                        } else if let r = rebuiltRow, liveRow.map({ r.key.lexicographicallyPrecedes($0.key) }) ?? true {
                            report(ViewDifference(database: name, key: text(r.key), kind: "missing in live"))
                            rebuiltRow = try rebuilt.move(.next) ? rebuilt.current() : nil
                        } else {
                            if liveRow!.value != rebuiltRow!.value {
                                report(ViewDifference(database: name, key: text(liveRow!.key), kind: "different value"))
                            }
                            liveRows += 1
                            liveRow = try live.move(.next) ? live.current() : nil
                            rebuiltRow = try rebuilt.move(.next) ? rebuilt.current() : nil
                        }
                    }
                    return liveRows
                }
            }
        }
    }
}
