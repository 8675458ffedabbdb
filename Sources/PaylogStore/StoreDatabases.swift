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
    /// The inline projections.
    let projections: [any InlineProjection]
    /// Which databases hold each projection's live and green views.
    let views = ViewRegistry()
    /// The dictionaries compressed payloads are read with, and the compression of new ones.
    let payloads: PayloadDictionaries

    init(environment: Environment, projections: [any InlineProjection], payloads: PayloadDictionaries) throws {
        events = try environment.openDatabase("events")
        versions = try environment.openDatabase(StoreDatabases.versionsName)
        ids = try environment.openDatabase("ids")
        meta = try environment.openDatabase(StoreDatabases.metaName)
        self.projections = projections
        self.payloads = payloads
    }

    /// The name of the stream index since log format 2.
    static let versionsName = "versions"
    /// The name of the database holding the log format and the chain head.
    static let metaName = "meta"
    /// The name of formats 1–3's stream heads (stream id → last version · last position), deleted on open.
    static let formatThreeHeadsName = "heads"
    /// The name of format 1's stream index (stream id · NUL · version → position), migrated away on open.
    static let formatOneStreamsName = "streams"
}
