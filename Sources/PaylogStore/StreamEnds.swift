import LMDBKit

/// The version of every stream's last event up to a rebuild's snapshot, read from `versions` in one pass in key
/// order before the log-order fold, so that the fold need not look each new stream up.
///
/// Why: the fold learns where each stream ends when it first sees it. One lookup per stream is a random descent
/// of a B-tree that, at 10 M events (2.5 M payments, an index of about 170 MB), no longer fits the rebuild's map
/// budget: `perf record -e page-faults` showed nine in ten of the fold's page faults in those descents (in the
/// `heads` index of formats 1–3), and the budget released the whole map thousands of times to make room for
/// them. One pass in key order touches each page once.
///
/// The table is an open-addressing hash table of one word per slot: 40 bits of a 64-bit hash of the stream id
/// (the fingerprint) and 24 bits of value. It holds no ids, so two ids with the same fingerprint on one probe
/// path are told apart by marking the slot ``Lookup/askVersions``: the fold then looks those up on their own. A stream
/// whose last event lies past the snapshot (appended during the rebuild) is ``Lookup/pastSnapshot``, and a version
/// too large for 24 bits is ``Lookup/askVersions`` too. 8 bytes a slot at a load of at most 0.7: about 32 MiB for
/// 2.5 M streams. When the table would exceed `maximumBytes`, ``read(_:_:snapshot:maximumBytes:mappedBudget:)``
/// returns nil and the fold looks every stream up.
struct StreamEnds: Sendable {
    /// What the table knows of one stream.
    enum Lookup: Equatable {
        /// The version of the stream's last event up to the snapshot.
        case lastVersion(UInt64)
        /// The stream's last event lies past the snapshot: its end up to the snapshot is not known.
        case pastSnapshot
        /// The table cannot tell (a shared fingerprint, a version over 24 bits, or a stream not in `versions`):
        /// look the stream's tail up (``StreamTail``).
        case askVersions
    }

    private static let valueBits: UInt64 = 24
    private static let valueMask: UInt64 = (1 << valueBits) - 1
    /// The value of a stream whose last event lies past the snapshot.
    static let pastSnapshotValue: UInt64 = valueMask
    /// The value of a stream to look up on its own.
    static let askVersionsValue: UInt64 = valueMask - 1
    /// The largest version stored as itself.
    static let largestVersion: UInt64 = valueMask - 2
    /// The default number of streams read before they are entered into the table (and the map's budget checked).
    static let defaultBatchSize = 4_096

    private let slots: [UInt64]
    private let mask: Int
    /// Streams entered.
    let count: Int

    /// A table over `slots` filled by ``insert(hash:value:into:)``.
    init(slots: [UInt64], count: Int) {
        self.slots = slots
        self.mask = slots.count - 1
        self.count = count
    }

    /// The number of slots for `streams` streams: a power of two, at a load of at most 0.7.
    static func slotCount(for streams: Int) -> Int {
        var slots = 16
        while slots * 7 < streams * 10 { slots <<= 1 }
        return slots
    }

    /// Reads every `versions` entry in key order into a table, `batchSize` streams at a time, releasing the map's
    /// pages whenever the process's resident file-backed memory passes `mappedBudget` (nil: never). A stream's
    /// entries sort together, chunk by chunk, so its last one — the one before the next stream's first — says where
    /// it ends (``StreamTail``). Returns nil when the table would take more than `maximumBytes`.
    static func read(
        _ environment: Environment, _ databases: StoreDatabases, snapshot: UInt64, maximumBytes: Int, mappedBudget: Int?,
        batchSize: Int = StreamEnds.defaultBatchSize
    ) throws -> StreamEnds? {
        let batchSize = max(batchSize, 1)
        return try environment.read { txn -> StreamEnds? in
            // One entry per 64 versions of a stream: at least one per stream, and in a payment log (a few events
            // a stream) hardly more.
            let entries = try txn.count(databases.versions)
            let slotCount = slotCount(for: entries)
            guard slotCount * MemoryLayout<UInt64>.stride <= maximumBytes else { return nil }
            var slots = [UInt64](repeating: 0, count: slotCount)
            var entered = 0
            // Streams are gathered in a small batch and entered in a loop of their own: each is a random write
            // into a table of tens of MiB (a cache miss), and a loop doing nothing else overlaps those misses,
            // where one interleaved with the cursor's walk waits for each.
            var batch: [(hash: UInt64, value: UInt64)] = []
            batch.reserveCapacity(batchSize)
            // What the latest entry says of the stream the cursor is in: entered once the next stream's first entry
            // (or the end) shows that entry was its last. Entries are told apart by their id's hash, and only when
            // the hashes are equal by the bytes (the previous id is read in place: a read transaction's pages stay
            // as they are until it ends), so the walk copies no id.
            var pending: (hash: UInt64, value: UInt64)?
            var previousID = UnsafeRawBufferPointer(start: nil, count: 0)
            try txn.withCursor(databases.versions) { cursor in
                var found = try cursor.move(.first)
                while found {
                    cursor.withCurrent { key, positions in
                        // A key that is not stream id · NUL · chunk names no stream: skipped, as a lookup would.
                        guard key.count > 5, key[key.count - 5] == 0 else { return }
                        let id = UnsafeRawBufferPointer(rebasing: key[..<(key.count - 5)])
                        let idHash = hash(id)
                        if pending?.hash != idHash || !id.elementsEqual(previousID) {
                            if let pending { batch.append(pending) }
                            pending = (idHash, 0)
                        }
                        previousID = id
                        let chunk = StoreKeys.readUInt32(key, at: key.count - 4)
                        pending?.value = value(ofChunk: chunk, positions: positions, snapshot: snapshot)
                    }
                    if batch.count == batchSize {
                        entered += enter(batch, into: &slots)
                        batch.removeAll(keepingCapacity: true)
                        if let mappedBudget { environment.releaseMappedPages(ifResidentFileBytesAbove: mappedBudget) }
                    }
                    found = try cursor.move(.next)
                }
            }
            if let pending { batch.append(pending) }
            entered += enter(batch, into: &slots)
            return StreamEnds(slots: slots, count: entered)
        }
    }

    /// The 24-bit value a stream's last `versions` entry is kept as: chunk `chunk` holding `positions` (8 bytes
    /// each, big-endian).
    static func value(ofChunk chunk: UInt32, positions: UnsafeRawBufferPointer, snapshot: UInt64) -> UInt64 {
        guard let tail = StreamTail.tail(chunk: chunk, positions: positions) else { return askVersionsValue }
        if tail.position > snapshot { return pastSnapshotValue }
        return tail.version <= largestVersion ? tail.version : askVersionsValue
    }

    /// What the table knows of stream `id`.
    func lookup(_ id: String) -> Lookup {
        var id = id
        return lookup(hash: id.withUTF8 { StreamEnds.hash(UnsafeRawBufferPointer($0)) })
    }

    /// What the table knows of the stream whose id hashes to `hash`.
    func lookup(hash: UInt64) -> Lookup {
        let fingerprint = StreamEnds.fingerprint(hash)
        var index = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = slots[index]
            if slot == 0 { return .askVersions }
            if slot >> StreamEnds.valueBits == fingerprint {
                switch slot & StreamEnds.valueMask {
                case StreamEnds.pastSnapshotValue: return .pastSnapshot
                case StreamEnds.askVersionsValue: return .askVersions
                case let version: return .lastVersion(version)
                }
            }
            index = (index + 1) & mask
        }
    }

    /// Enters every entry of `batch` into `slots` (see ``insert(hash:value:into:)``); returns how many took an
    /// empty slot.
    static func enter(_ batch: [(hash: UInt64, value: UInt64)], into slots: inout [UInt64]) -> Int {
        var entered = 0
        for entry in batch where insert(hash: entry.hash, value: entry.value, into: &slots) { entered += 1 }
        return entered
    }

    /// Enters one stream into `slots`; a fingerprint already on the probe path makes that slot
    /// ``Lookup/askVersions``. Returns whether it took an empty slot.
    static func insert(hash: UInt64, value: UInt64, into slots: inout [UInt64]) -> Bool {
        let fingerprint = fingerprint(hash)
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = slots[index]
            if slot == 0 {
                slots[index] = fingerprint << valueBits | value
                return true
            }
            if slot >> valueBits == fingerprint {
                slots[index] = fingerprint << valueBits | askVersionsValue
                return false
            }
            index = (index + 1) & mask
        }
    }

    /// The 40 high bits of `hash`, never zero (a zero slot is empty).
    @inline(__always)
    static func fingerprint(_ hash: UInt64) -> UInt64 {
        (hash >> valueBits) | (1 << (63 - valueBits))
    }

    /// A 64-bit hash of a stream id's bytes: words mixed with SplitMix64's finalizer. Not Swift's `Hasher`
    /// (randomly seeded per process, and slower on these short keys); the table only needs spread, and shared
    /// fingerprints are handled.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = mix(hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        return mix(hash ^ tail)
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
