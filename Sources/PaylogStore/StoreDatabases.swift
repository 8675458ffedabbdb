import LMDBKit

/// The LMDB databases of one event store. See Docs/storage.md for each key layout.
struct StoreDatabases: Sendable {
    /// position → stored record.
    let events: Database
    /// stream id + NUL + version → position.
    let streams: Database
    /// stream id → last version + last position.
    let heads: Database
    /// event id (16 bytes) → position.
    let ids: Database
    /// `head`, `format` → values.
    let meta: Database
    /// The inline projections and their databases.
    let projections: [any InlineProjection]
    let projectionDatabases: ProjectionDatabases

    init(environment: Environment, projections: [any InlineProjection]) throws {
        events = try environment.openDatabase("events")
        streams = try environment.openDatabase("streams")
        heads = try environment.openDatabase("heads")
        ids = try environment.openDatabase("ids")
        meta = try environment.openDatabase("meta")
        self.projections = projections
        var byName: [String: Database] = [:]
        for projection in projections {
            for name in projection.databaseNames { byName[name] = try environment.openDatabase(name) }
        }
        projectionDatabases = ProjectionDatabases(byName: byName)
    }
}
