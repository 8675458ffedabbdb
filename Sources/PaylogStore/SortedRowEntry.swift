/// Where one row of an ``IndexRowSorter`` sits in its byte arena: key then value, from `offset`.
struct SortedRowEntry {
    var offset: Int
    var keyCount: Int32
    var valueCount: Int32
    /// The database's index in the sorter's list.
    var database: UInt16
    /// See ``ViewRow/position``.
    var position: UInt64
    /// The key's first sixteen bytes as two big-endian numbers, zero-padded: two keys whose prefixes differ are in
    /// the prefixes' order, so the sort compares the bytes (`memcmp`) only when they are equal. Keys of a view
    /// seldom share sixteen bytes (payment ids, `ref:` plus a reference — though they often share eight: a
    /// shop's ids and references share their start), and `memcmp` calls were a third of the sort (`perf`,
    /// Docs/performance.md).
    var prefix: (UInt64, UInt64)

    /// The entry of a row whose key's bytes are `key`.
    init(offset: Int, key: UnsafeRawBufferPointer, valueCount: Int32, database: UInt16, position: UInt64) {
        self.offset = offset
        keyCount = Int32(key.count)
        self.valueCount = valueCount
        self.database = database
        self.position = position
        prefix = (Self.word(of: key, at: 0), Self.word(of: key, at: 8))
    }

    /// True when the prefixes alone order `self` before `other`; false when they order it after or are equal.
    func precedes(byPrefix other: SortedRowEntry) -> Bool {
        Self.precedes(prefix, other.prefix)
    }

    /// True when key prefix `a` (see ``prefix``) orders its key before `b`'s; false when after or equal.
    @inline(__always)
    static func precedes(_ a: (UInt64, UInt64), _ b: (UInt64, UInt64)) -> Bool {
        a.0 != b.0 ? a.0 < b.0 : a.1 < b.1
    }

    /// Bytes `start..<start + 8` of `key` as a big-endian number, zero-padded past the key's end.
    static func word(of key: UnsafeRawBufferPointer, at start: Int) -> UInt64 {
        if key.count >= start + 8 { return UInt64(bigEndian: key.loadUnaligned(fromByteOffset: start, as: UInt64.self)) }
        var word: UInt64 = 0
        for index in start..<(start + 8) { word = word << 8 | UInt64(index < key.count ? key[index] : 0) }
        return word
    }
}
