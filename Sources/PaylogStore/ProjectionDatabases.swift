import LMDBKit

/// The LMDB databases of the store's inline projections, by name.
public struct ProjectionDatabases: Sendable {
    let byName: [String: Database]

    /// The database called `name`. Traps when no projection declared it: that is a programming error.
    public subscript(_ name: String) -> Database {
        guard let database = byName[name] else { preconditionFailure("no projection declares a database named \(name)") }
        return database
    }
}
