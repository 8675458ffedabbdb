/// A batch of rows a ``RowMerge`` hands to the writer: keys and values back to back in one buffer, in (database,
/// key) order, one row per key. One allocation per batch instead of two arrays per row.
struct MergedRows: Sendable {
    /// Where one row sits in ``bytes``.
    struct Row: Sendable {
        /// The database's index in the merge's list of names.
        var database: UInt16
        var offset: Int
        var keyCount: Int
        var valueCount: Int
        /// See ``ViewRow/position``.
        var position: UInt64
    }

    /// The databases' names, indexed by ``Row/database``.
    let names: [String]
    /// Each row's key followed by its value.
    private(set) var bytes: [UInt8] = []
    private(set) var rows: [Row] = []

    init(names: [String], capacity: Int) {
        self.names = names
        rows.reserveCapacity(capacity)
    }

    /// How many rows there are.
    var count: Int { rows.count }
    var isEmpty: Bool { rows.isEmpty }

    /// Removes every row, keeping the buffers' capacity (a merge refills a batch the writer is done with).
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
    }

    /// Adds a row whose key is `key` and value `value`.
    mutating func append(database: UInt16, position: UInt64, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        rows.append(Row(database: database, offset: bytes.count, keyCount: key.count, valueCount: value.count, position: position))
        bytes.append(contentsOf: key)
        bytes.append(contentsOf: value)
    }

    /// Row `index`'s database number (its index in ``names``).
    func database(at index: Int) -> Int { Int(rows[index].database) }

    /// Calls `body` with row `index`'s database number, key and value.
    func withRow<R>(at index: Int, _ body: (Int, UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> R) -> R {
        let row = rows[index]
        let keyEnd = row.offset + row.keyCount
        return bytes.withUnsafeBytes { base in
            body(
                Int(row.database), UnsafeRawBufferPointer(rebasing: base[row.offset..<keyEnd]),
                UnsafeRawBufferPointer(rebasing: base[keyEnd..<(keyEnd + row.valueCount)]))
        }
    }

    /// Where the row table's storage begins (tests: to tell a refilled batch from a new one).
    var rowsBaseAddress: UnsafeRawPointer? {
        rows.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    /// The rows as values (tests and diagnostics).
    var viewRows: [ViewRow] {
        rows.indices.map { index in
            withRow(at: index) { database, key, value in
                ViewRow(database: names[database], key: Array(key), value: Array(value), position: rows[index].position)
            }
        }
    }
}
