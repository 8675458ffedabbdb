import Foundation

/// The open streams of a fold by id: stream id → slot, found from the id's UTF-8 bytes as read from a record, so
/// that a fold does not build and hash a `String` for every event of a stream it already holds (both were about
/// 5 % of a fold thread, `perf`). Each id is kept as a `String` once, when its stream is opened.
///
/// An open-addressing table with linear probing, at most half full, with backward-shift deletion (no
/// tombstones: streams are opened and finished all through a fold).
///
/// A class, so that the fold's per-event lookup (from inside the record reader's closure, in generic code) reaches
/// it through one reference instead of copying the ``OpenStreams`` that holds it. Used by one thread at a time, so
/// its properties are `@exclusivity(unchecked)` (see ``FoldScratch``).
final class StreamSlotTable {
    /// Per bucket, the slot of the stream it holds, or -1.
    @exclusivity(unchecked) private var buckets: [Int32]
    /// Per slot, its stream's id and that id's hash; the id is "" for a slot not in the table.
    @exclusivity(unchecked) private var ids: [String] = []
    @exclusivity(unchecked) private var hashes: [UInt64] = []
    /// Streams in the table.
    @exclusivity(unchecked) private(set) var count = 0

    /// An empty table with room for `capacity` streams before it grows.
    init(capacity: Int = 512) {
        var buckets = 16
        while buckets < 2 * capacity { buckets *= 2 }
        self.buckets = Array(repeating: -1, count: buckets)
    }

    /// The slot of the stream whose id has these UTF-8 bytes.
    func slot(of bytes: UnsafeRawBufferPointer) -> Int? {
        let hash = StreamSlotTable.hash(bytes)
        let mask = buckets.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = Int(buckets[index])
            if slot < 0 { return nil }
            if hashes[slot] == hash && StreamSlotTable.equal(ids[slot], bytes) { return slot }
            index = (index + 1) & mask
        }
    }

    /// The slot of stream `id`.
    func slot(of id: String) -> Int? {
        var id = id
        return id.withUTF8 { slot(of: UnsafeRawBufferPointer($0)) }
    }

    /// The id of the stream in `slot`.
    func id(of slot: Int) -> String { ids[slot] }

    /// Enters stream `id` (not in the table) in `slot` (not in use).
    func insert(_ id: String, slot: Int) {
        if 2 * (count + 1) > buckets.count { grow() }
        while ids.count <= slot {
            ids.append("")
            hashes.append(0)
        }
        var id = id
        let hash = id.withUTF8 { StreamSlotTable.hash(UnsafeRawBufferPointer($0)) }
        ids[slot] = id
        hashes[slot] = hash
        place(slot, hash: hash)
        count += 1
    }

    /// Removes the stream in `slot` from the table.
    func remove(slot: Int) {
        let mask = buckets.count - 1
        var index = Int(truncatingIfNeeded: hashes[slot]) & mask
        while Int(buckets[index]) != slot {
            precondition(buckets[index] >= 0, "slot \(slot) is not in the table")
            index = (index + 1) & mask
        }
        // Backward-shift deletion: move later entries of the probe run into the hole when their home bucket is
        // not between the hole and them, so every remaining entry stays reachable from its home bucket.
        var hole = index
        var next = (hole + 1) & mask
        while buckets[next] >= 0 {
            let home = Int(truncatingIfNeeded: hashes[Int(buckets[next])]) & mask
            let distanceToNext = (next - home) & mask
            let distanceToHole = (hole - home) & mask
            if distanceToHole <= distanceToNext {
                buckets[hole] = buckets[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        buckets[hole] = -1
        ids[slot] = ""
        count -= 1
    }

    /// Puts `slot` in the first free bucket of its probe run.
    private func place(_ slot: Int, hash: UInt64) {
        let mask = buckets.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while buckets[index] >= 0 { index = (index + 1) & mask }
        buckets[index] = Int32(slot)
    }

    /// Doubles the buckets and places every stream again.
    private func grow() {
        let held = buckets.filter { $0 >= 0 }
        buckets = Array(repeating: -1, count: buckets.count * 2)
        for slot in held { place(Int(slot), hash: hashes[Int(slot)]) }
    }

    /// True when `id`'s UTF-8 bytes are `bytes`.
    private static func equal(_ id: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let same = id.utf8.withContiguousStorageIfAvailable { utf8 in
            utf8.count == bytes.count && (bytes.isEmpty || memcmp(utf8.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
        return same ?? id.utf8.elementsEqual(bytes)
    }

    /// FNV-1a over the bytes, then a 64-bit finalizer so the low bits (the bucket) depend on every byte.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        return hash
    }
}
