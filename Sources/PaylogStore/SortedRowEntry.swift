/// Where one row of an ``IndexRowSorter`` sits in its byte arena: key then value, from `offset`.
struct SortedRowEntry {
    var offset: Int
    var keyCount: Int32
    var valueCount: Int32
    /// The database's index in the sorter's list.
    var database: UInt16
    /// See ``ViewRow/position``.
    var position: UInt64
}
