import LMDBKit
import PaylogStore

/// A test projection that only names its databases (for the store's check of reserved names); it writes nothing.
struct NamedProjection: InlineProjection {
    let name = "named"
    let version: UInt64 = 1
    let databaseNames: [String]

    func apply(_ event: RecordedEvent, in txn: borrowing Transaction, databases: ProjectionDatabases) throws {}
}
