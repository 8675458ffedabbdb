import LMDBKit
import PaylogStore

/// A test projection that counts every event it applies and then refuses events of type `Poison`: it has
/// written to its view before it throws, so an append it refuses must leave no trace of those writes.
struct RefusingProjection: InlineProjection {
    /// The error it throws.
    struct Refusal: Error, Equatable {
        let position: UInt64
    }

    let name = "refusing"
    let version: UInt64 = 1
    let databaseNames = ["refusing-counts"]

    func apply(_ event: RecordedEvent, in txn: borrowing Transaction, databases: ProjectionDatabases) throws {
        let key = Array("applied".utf8)
        let applied = try txn.value(for: key, in: databases["refusing-counts"]).map(CountingProjection.decode) ?? 0
        try txn.put(CountingProjection.encode(applied + 1), for: key, in: databases["refusing-counts"])
        if event.type == "Poison" { throw Refusal(position: event.position) }
    }

    /// How many events the view holds as applied.
    static func applied(_ store: EventStore) throws -> UInt64 {
        try store.readViews { txn, databases in
            try txn.value(for: Array("applied".utf8), in: databases["refusing-counts"]).map(CountingProjection.decode) ?? 0
        }
    }
}
