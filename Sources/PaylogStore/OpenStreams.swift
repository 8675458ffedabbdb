/// The streams a ``FoldPartition`` is folding: each one in a numbered slot (slots are reused) whose state its
/// ``StreamFolder`` keeps, found by stream id — or by the id's bytes as read from a record — through a
/// ``StreamSlotTable``, so that the per-event lookup builds no string.
///
/// At most `maximumOpen` streams are held; opening one more drops the stream opened first and defers it (see
/// ``FoldPartition``).
struct OpenStreams {
    /// The most streams held at once.
    let maximumOpen: Int
    /// The open streams by id (a reference: an `OpenStreams` is one fold's, never copied to be used twice).
    let slots = StreamSlotTable()
    /// Keeps the states; told to empty the slot of a stream dropped and deferred.
    private let folder: any StreamFolder
    /// Per slot, the version of the stream's last event up to the snapshot; `.max` when unknown.
    private var lastVersions: [UInt64] = []
    /// Per slot, whether a stream is open in it.
    private var isOpen: [Bool] = []
    private var freeSlots: [Int] = []
    /// Stream ids in the order they were opened, from `orderStart` on; some since finished.
    private var order: [String] = []
    private var orderStart = 0
    /// Streams dropped from memory, to fold on their own.
    private(set) var deferred: Set<String> = []
    /// The most streams held at once so far.
    private(set) var mostOpen = 0

    init(maximumOpen: Int, folder: any StreamFolder) {
        precondition(maximumOpen >= 1)
        self.maximumOpen = maximumOpen
        self.folder = folder
    }

    /// Streams held now.
    var count: Int { slots.count }

    /// The slot of an open stream.
    func slot(of id: String) -> Int? { slots.slot(of: id) }


    /// True when `id` was dropped and deferred.
    func isDeferred(_ id: String) -> Bool { !deferred.isEmpty && deferred.contains(id) }

    /// Opens `id` in an empty slot, dropping and deferring the stream opened first if `maximumOpen` are
    /// held; returns its slot.
    mutating func open(_ id: String, lastVersion: UInt64?) -> Int {
        if slots.count >= maximumOpen { deferOldest() }
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            lastVersions[slot] = lastVersion ?? .max
            isOpen[slot] = true
        } else {
            slot = lastVersions.count
            lastVersions.append(lastVersion ?? .max)
            isOpen.append(true)
        }
        slots.insert(id, slot: slot)
        order.append(id)
        if order.count - orderStart > 2 * slots.count + 1_024 {
            order = order[orderStart...].filter { slots.slot(of: $0) != nil }
            orderStart = 0
        }
        mostOpen = max(mostOpen, slots.count)
        return slot
    }

    /// True when `version` is the last one of the stream in `slot` up to the snapshot.
    func isLast(_ version: UInt64, in slot: Int) -> Bool { lastVersions[slot] == version }

    /// Closes the stream in `slot`, returning its id; its state stays in the folder's slot until the caller
    /// finishes or discards it there.
    mutating func close(_ slot: Int) -> String {
        let id = slots.id(of: slot)
        slots.remove(slot: slot)
        isOpen[slot] = false
        freeSlots.append(slot)
        return id
    }

    /// Closes every stream still open, returning their slots and ids (states as for ``close(_:)``).
    mutating func closeAll() -> [(slot: Int, id: String)] {
        let closed = isOpen.indices.filter { isOpen[$0] }.map { (slot: $0, id: close($0)) }
        order = []
        orderStart = 0
        return closed
    }

    /// Drops the stream opened first that is still open, and defers it.
    private mutating func deferOldest() {
        while orderStart < order.count {
            let candidate = order[orderStart]
            orderStart += 1
            if let slot = slots.slot(of: candidate) {
                _ = close(slot)
                folder.discard(slot: slot)
                deferred.insert(candidate)
                return
            }
        }
    }
}
