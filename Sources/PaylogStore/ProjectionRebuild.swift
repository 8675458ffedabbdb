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
        /// Folds the events from `next` on, through `last` (nil: to the end of the log as the pages find it).
        func fold(through last: UInt64?) throws {
            while last.map({ next <= $0 }) ?? true {
                let limit = last.map { Int(min(UInt64(pageSize), $0 - next + 1)) } ?? pageSize
                let page = try store.read(from: next, limit: limit)
                if page.isEmpty { break }
                try scratch.write { txn in
                    for projection in projections { try projection.apply(page, in: txn, databases: scratchDatabases) }
                    for event in page {
                        guard let declared = event.tags else { continue }
                        let target = TaggedEvent(streamID: event.streamID, position: event.position).encoded
                        for tag in declared { try txn.put(target, for: Array(tag.utf8), in: tags) }
                    }
                }
                for event in page { try eachEvent(event) }
                applied += UInt64(page.count)
                next = page.last!.position + 1
                progress(applied, max(total, applied))
                if page.count < limit { break }
            }
        }
        try fold(through: nil)
        // What the comparison reads, in one snapshot; then the events appended since the pages ended, up to its head.
        let live = try store.readViews { txn, databases in
            (head: try ChainHead.load(txn, store.databases).position,
             views: try names.map { try entries(txn, databases[$0]) },
             tags: try entries(txn, store.databases.tags),
             streamIndexEntries: try store.streamIndexEntryCount(in: txn))
        }
        total = max(total, live.head)
        try fold(through: live.head)
        var differences: [ViewDifference] = []
        var count = 0
        func report(_ difference: ViewDifference) {
            count += 1
            if differences.count < differenceLimit { differences.append(difference) }
        }
        for (name, rows) in zip(names, live.views) {
            try compare(name, live: rows, scratch: scratch, scratchDatabase: byName[name]!, report: report)
        }
        try compare(StoreDatabases.tagsName, live: live.tags, scratch: scratch, scratchDatabase: tags, report: report)
        return ProjectionRebuild(
            events: applied, position: next - 1, differences: differences, differenceCount: count,
            liveRowCounts: Dictionary(uniqueKeysWithValues: zip(names, live.views.map(\.count))),
            streamIndexEntries: live.streamIndexEntries)
    }

    /// Walks the live entries and the rebuilt database in key order and reports every key whose value differs or
    /// exists on one side only.
    static func compare(
        _ name: String, live liveEntries: [(key: [UInt8], value: [UInt8])], scratch: Environment, scratchDatabase: Database,
        report: (ViewDifference) -> Void
    ) throws {
        // Copy one side page by page would be leaner; views are small next to the log, so read both in full.
        let rebuiltEntries = try scratch.read { txn in try entries(txn, scratchDatabase) }
        var i = 0
        var j = 0
        func text(_ key: [UInt8]) -> String { String(validating: key, as: UTF8.self) ?? key.map { String(format: "%02x", $0) }.joined() }
        while i < liveEntries.count || j < rebuiltEntries.count {
            if j == rebuiltEntries.count || (i < liveEntries.count && liveEntries[i].key.lexicographicallyPrecedes(rebuiltEntries[j].key)) {
                report(ViewDifference(database: name, key: text(liveEntries[i].key), kind: "missing in rebuild"))
                i += 1
            } else if i == liveEntries.count || rebuiltEntries[j].key.lexicographicallyPrecedes(liveEntries[i].key) {
                report(ViewDifference(database: name, key: text(rebuiltEntries[j].key), kind: "missing in live"))
                j += 1
            } else {
                if liveEntries[i].value != rebuiltEntries[j].value {
                    report(ViewDifference(database: name, key: text(liveEntries[i].key), kind: "different value"))
                }
                i += 1
                j += 1
            }
        }
    }

    static func entries(_ txn: borrowing Transaction, _ database: Database) throws -> [(key: [UInt8], value: [UInt8])] {
        try txn.withCursor(database) { cursor in
            var result: [(key: [UInt8], value: [UInt8])] = []
            var found = try cursor.move(.first)
            while found {
                result.append(cursor.current())
                found = try cursor.move(.next)
            }
            return result
        }
    }
}
