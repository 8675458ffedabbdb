import LMDBKit

/// One slice of a log-order rebuild (``LogOrderBuild``): it reads one range of positions of the log in order,
/// page by page, and folds the streams that begin in that range, handing every row to the ``IndexRowSorter`` of
/// the thread that runs it.
///
/// A stream is finished — its state turned into rows and dropped — as soon as its last event up to the snapshot
/// is folded (``StreamEnds``, or the stream's last `versions` entry, gives each stream's last version when the
/// stream is first seen), so memory holds only the streams open at the current position: in a payment log, those
/// whose events straddle it.
/// A stream first seen at a version above 1 began in an earlier range and is left to that range's partition;
/// streams still open at the end of a range that is not the last are folded again on their own, through the
/// `versions` index (in a payment log, the few hundred whose events straddle the boundary).
/// When more than `maximumOpen` streams are open at once, the one opened first is dropped and deferred: its
/// later events are skipped, and it is folded on its own after the read the same way. Memory stays bounded
/// whatever the log; a log of very long-lived streams only costs random reads for those.
///
/// The states are kept by the projection's ``StreamFolder``, so that this code is not generic over the projection
/// (it ran unspecialised, the projection being another module's).
///
/// Used by one thread at a time (handed to a task and back), hence `@unchecked Sendable`.
final class FoldPartition: @unchecked Sendable {
    /// Events read per read transaction.
    static var pageSize: Int { 8_192 }

    /// The projection's states of the open streams, and its fold.
    let folder: any StreamFolder
    /// The positions this partition reads.
    let range: ClosedRange<UInt64>
    /// The last position of the rebuild.
    let snapshot: UInt64
    /// The most streams held open before the oldest is deferred.
    let maximumOpen: Int
    /// The resident file-backed memory above which the map's pages are released; nil: never.
    let mappedBudget: Int?
    /// Where this partition's compressed payloads are decompressed.
    private let scratch = FoldScratch()
    /// Events of its range this partition read (every one, whether or not it folds it).
    private(set) var read: UInt64 = 0
    /// Events this partition folded (a deferred stream's events before it was dropped count twice).
    private(set) var folded: UInt64 = 0
    /// The most streams it held open at once.
    private(set) var mostOpen = 0
    /// How many streams it folded on their own after the read: those dropped while over `maximumOpen`, and
    /// those still open at the end of a range that is not the last.
    private(set) var deferredCount = 0

    init(_ folder: any StreamFolder, range: ClosedRange<UInt64>, snapshot: UInt64, maximumOpen: Int, mappedBudget: Int?) {
        precondition(maximumOpen >= 1 && range.lowerBound >= 1 && range.upperBound <= snapshot)
        self.folder = folder
        self.range = range
        self.snapshot = snapshot
        self.maximumOpen = maximumOpen
        self.mappedBudget = mappedBudget
    }

    /// Reads this partition's range of the log and folds the streams that begin in it, handing the rows to
    /// `sorter`; `progress` gets the number of events read after each page.
    /// `ends`, when given, tells where each stream ends; streams it cannot tell are looked up in `versions`
    /// (``StreamTail``).
    func run(
        _ environment: Environment, _ databases: StoreDatabases, ends: StreamEnds?, sorter: IndexRowSorter,
        progress: (UInt64) -> Void
    ) throws {
        // Locals, not properties: the per-event path then needs no dynamic exclusivity checks, nor a retain of
        // each object per event (the dictionaries are shared by both fold threads: see `FoldScratch`).
        let folder = folder
        let scratch = Unmanaged.passUnretained(scratch)
        let payloads = Unmanaged.passUnretained(databases.payloads)
        var streams = OpenStreams(maximumOpen: maximumOpen, folder: folder)
        let slots = streams.slots
        var rows = ViewRows()
        var folded: UInt64 = 0
        var next = range.lowerBound
        let last = range.upperBound
        var reported = next
        var readInRange: UInt64 = 0
        // The addresses of the log values read since the map was last released: released first when over
        // budget, so that the pages still wanted (`versions`, the B-trees' branch pages) stay mapped.
        var low = UInt.max
        var high: UInt = 0
        // The budget is looked at after `checkEvery` new pages of the log were touched (a page of values read
        // after one of another page: a possible fault, mapping up to 64 KiB around it; about ten events each),
        // or stream tail lookups (a random read, which may map a large folio of up to 512 KiB) — so at most about
        // 2 MiB (or 16 MiB of folios) is mapped between two looks. Reading `/proc/self/statm` every 64 events
        // was 1 % of a replay's samples.
        let checkEvery = 32
        var touched = 0
        var lastPage: UInt = 0
        while next <= last {
            try environment.read { txn in
                try txn.withCursor(databases.events) { cursor in
                    guard try cursor.move(.atOrAfter, key: StoreKeys.event(next)) else {
                        next = last + 1
                        return
                    }
                    var read = 0
                    // Read in place: the event points into this read transaction's pages, and is folded inside
                    // the cursor's closure (returned from it, the event was copied out on every read). The next
                    // value is read ahead meanwhile. The slot of its stream, when open, is found from the id's
                    // bytes as the record is read.
                    _ = try cursor.forEachReadingAhead(limit: Self.pageSize) { key, value in
                        let position = try StoreKeys.position(ofEventKey: key)
                        guard position <= last else { return false }
                        let address = UInt(bitPattern: value.baseAddress)
                        low = min(low, address)
                        high = max(high, address + UInt(value.count))
                        if address >> 12 != lastPage {
                            lastPage = address >> 12
                            touched += 1
                        }
                        var openSlot: Int?
                        let event = try FoldEvent(value, position: position, dictionaries: payloads, scratch: scratch) {
                            bytes in
                            openSlot = slots.slot(of: bytes)
                            return openSlot.map { slots.id(of: $0) }
                        }
                        if try fold(event, openSlot, &streams, folder, &rows, ends, &touched, txn, databases) { folded += 1 }
                        next = event.position + 1
                        read += 1
                        readInRange += 1
                        if let mappedBudget, touched >= checkEvery {
                            touched = 0
                            if Environment.residentFileBytes(over: mappedBudget) {
                                environment.releaseMappedPages(from: low, to: high)
                                (low, high) = (.max, 0)
                                if Environment.residentFileBytes(over: mappedBudget) { environment.releaseMappedPages() }
                            }
                        }
                        return true
                    }
                    if read < Self.pageSize { next = last + 1 }
                }
            }
            try drain(&rows, into: sorter)
            progress(next - reported)
            reported = next
        }
        // Streams still open at the snapshot are complete; those open at the end of an earlier range go on in
        // the next one, so they are folded again on their own.
        var unfinished: [String] = []
        for (slot, id) in streams.closeAll() {
            if last < snapshot {
                unfinished.append(id)
                folder.discard(slot: slot)
            } else {
                try folder.finish(slot: slot, stream: id, rows: &rows)
            }
        }
        try drain(&rows, into: sorter)
        self.read = readInRange
        mostOpen = streams.mostOpen
        deferredCount = streams.deferred.count + unfinished.count
        folded += try foldDeferred((Array(streams.deferred) + unfinished).sorted(), &rows, environment, databases, sorter)
        self.folded = folded
    }

    /// Folds one event into its stream's state, opening the stream at its first event and finishing it at its
    /// last; returns false for an event of a stream this partition does not fold. `openSlot` is the stream's slot
    /// when it is open (found as the record was read). A stream tail lookup (``StreamTail``) counts in `touched` as a
    /// new page.
    private func fold(
        _ event: FoldEvent, _ openSlot: Int?, _ streams: inout OpenStreams, _ folder: any StreamFolder,
        _ rows: inout ViewRows, _ ends: StreamEnds?, _ touched: inout Int, _ txn: borrowing Transaction,
        _ databases: StoreDatabases
    ) throws -> Bool {
        let id = event.streamID
        let slot: Int
        if let openSlot {
            // (An open stream is never deferred: a deferred stream is closed, and not opened again.)
            slot = openSlot
        } else {
            if streams.isDeferred(id) { return false }
            guard event.version == 1 else {
                // The stream began before this range: the partition of its first event folds it.
                guard range.lowerBound == 1 else { return false }
                throw EventStoreError.corruptRecord(
                    position: event.position, reason: "stream \(id) is first seen at version \(event.version), not 1")
            }
            let lastVersion: UInt64?
            switch ends?.lookup(id) ?? .askVersions {
            case .lastVersion(let version): lastVersion = version
            case .pastSnapshot: lastVersion = nil
            case .askVersions:
                touched += 1
                let tail = try StreamTail.read(id, in: txn, databases: databases)
                lastVersion = tail.version > 0 && tail.position <= snapshot ? tail.version : nil
            }
            slot = streams.open(id, lastVersion: lastVersion)
        }
        try folder.fold(event, slot: slot, rows: &rows)
        if streams.isLast(event.version, in: slot) {
            try folder.finish(slot: slot, stream: streams.close(slot), rows: &rows)
        }
        return true
    }

    /// Folds each of the streams `ids` on its own, its events found through the `versions` index
    /// (random reads), in the folder's slot 0 (free: every stream was closed); returns the events folded.
    private func foldDeferred(
        _ ids: [String], _ rows: inout ViewRows, _ environment: Environment, _ databases: StoreDatabases,
        _ sorter: IndexRowSorter
    ) throws -> UInt64 {
        var folded: UInt64 = 0
        var start = 0
        while start < ids.count {
            // Each of these streams is a few random reads, each mapping the cached pages around it: check the
            // budget every 64 streams.
            let batch = ids[start..<min(start + 64, ids.count)]
            start = batch.endIndex
            try environment.read { txn in
                for id in batch {
                    for position in try positions(of: id, txn, databases) {
                        try txn.withValue(for: StoreKeys.event(position), in: databases.events) { value in
                            guard let value else {
                                throw EventStoreError.corruptRecord(position: position, reason: "indexed by stream \(id) but missing")
                            }
                            let event = try FoldEvent(value, position: position, dictionaries: databases.payloads, scratch: scratch)
                            try folder.fold(event, slot: 0, rows: &rows)
                        }
                        folded += 1
                    }
                    try folder.finish(slot: 0, stream: id, rows: &rows)
                }
            }
            try drain(&rows, into: sorter)
            if let mappedBudget { environment.releaseMappedPages(ifResidentFileBytesAbove: mappedBudget) }
        }
        return folded
    }

    /// The positions of stream `id`'s events up to the snapshot, in version order, from the `versions` index.
    private func positions(of id: String, _ txn: borrowing Transaction, _ databases: StoreDatabases) throws -> [UInt64] {
        var positions: [UInt64] = []
        var chunk: UInt32 = 0
        // `versions` holds the stream's positions in chunks of 64 versions, in version order.
        while true {
            let full = try txn.withValue(for: StoreKeys.versionsKey(id, chunk: chunk), in: databases.versions) { value -> Bool in
                guard let value else { return false }
                for index in 0..<(value.count / 8) {
                    let position = StoreKeys.readUInt64(value, at: index * 8)
                    guard position <= snapshot else { return false }
                    positions.append(position)
                }
                return value.count == Int(StoreKeys.versionsPerChunk) * 8
            }
            guard full else { return positions }
            chunk += 1
        }
    }

    /// Hands the rows gathered so far to the sorter.
    private func drain(_ rows: inout ViewRows, into sorter: IndexRowSorter) throws {
        try sorter.add(rows)
        rows.removeAll()
    }
}
