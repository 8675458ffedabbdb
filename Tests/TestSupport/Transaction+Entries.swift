import LMDBKit

extension Transaction {
    /// Every key and value of `database`, in key order (copied out of the transaction's pages).
    public func entries(of database: Database) throws -> [(key: [UInt8], value: [UInt8])] {
        try withCursor(database) { cursor in
            var entries: [(key: [UInt8], value: [UInt8])] = []
            var found = try cursor.move(.first)
            while found {
                entries.append(cursor.current())
                found = try cursor.move(.next)
            }
            return entries
        }
    }
}
