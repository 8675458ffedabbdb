import CLMDB

/// Where a ``Cursor`` moves.
public enum CursorOperation: Sendable {
    /// The first entry.
    case first
    /// The last entry.
    case last
    /// The entry after the current one.
    case next
    /// The entry before the current one.
    case previous
    /// The entry with exactly the given key.
    case exact
    /// The first entry whose key is greater than or equal to the given key.
    case atOrAfter

    var op: MDB_cursor_op {
        switch self {
        case .first: return MDB_FIRST
        case .last: return MDB_LAST
        case .next: return MDB_NEXT
        case .previous: return MDB_PREV
        case .exact: return MDB_SET_KEY
        case .atOrAfter: return MDB_SET_RANGE
        }
    }
}
