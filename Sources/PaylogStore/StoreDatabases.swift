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
    /// The inline projections.
    let projections: [any InlineProjection]
    /// Which databases hold each projection's live and green views.
    let views = ViewRegistry()

    init(environment: Environment, projections: [any InlineProjection]) throws {
        events = try environment.openDatabase("events")
        streams = try environment.openDatabase("streams")
        heads = try environment.openDatabase("heads")
        ids = try environment.openDatabase("ids")
        meta = try environment.openDatabase("meta")
        self.projections = projections
    }
}
