import LMDBKit

/// The LMDB databases of one event store. See Docs/storage.md for each key layout.
struct StoreDatabases: Sendable {
    /// position → stored record.
    let events: Database
    /// `versions`: stream id + NUL + chunk number → the positions of the chunk's versions
    /// (``StoreKeys/versionsKey(_:chunk:)``).
    let versions: Database
    /// event id (16 bytes) → position.
    let ids: Database
    /// `head`, `format` → values.
    let meta: Database
    /// `tag-index`: tag (UTF-8) → position u64 BE · stream id (UTF-8) of the last event declaring it (log format 5).
    let tags: Database
    /// The inline projections.
    let projections: [any InlineProjection]
    /// Which databases hold each projection's live and green views.
    let views = ViewRegistry()
    /// The dictionaries compressed payloads are read with, and the compression of new ones.
    let payloads: PayloadDictionaries

    init(environment: Environment, projections: [any InlineProjection], payloads: PayloadDictionaries) throws {
        for projection in projections {
            for name in projection.databaseNames where StoreDatabases.reservedNames.contains(name) || name.contains("#") {
                throw EventStoreError.reservedDatabaseName(projection: projection.name, database: name)
            }
        }
        events = try environment.openDatabase("events")
        versions = try environment.openDatabase(StoreDatabases.versionsName)
        ids = try environment.openDatabase("ids")
        meta = try environment.openDatabase(StoreDatabases.metaName)
        tags = try environment.openDatabase(StoreDatabases.tagsName)
        self.projections = projections
        self.payloads = payloads
    }

    /// The name of the stream index since log format 2.
    static let versionsName = "versions"
    /// The name of the index of declared tags since log format 5.
    static let tagsName = "tag-index"
    /// The names the store's own databases have or had: no projection may name a database so (nor use `#`,
    /// which separates a view's generation from its name).
    static let reservedNames: Set<String> = [
        "events", versionsName, "ids", metaName, tagsName, formatThreeHeadsName, formatOneStreamsName,
    ]
    /// The name of the database holding the log format and the chain head.
    static let metaName = "meta"
    /// The name of formats 1–3's stream heads (stream id → last version · last position), deleted on open.
    static let formatThreeHeadsName = "heads"
    /// The name of format 1's stream index (stream id · NUL · version → position), migrated away on open.
    static let formatOneStreamsName = "streams"
}
