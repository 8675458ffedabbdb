import LMDBKit

extension EventStore {
    /// What a store opened read-only (``LMDBKit/EnvironmentOptions/readOnly``) reads its format with: the log must
    /// already be in the current format (a read-only store cannot be migrated), and its payload dictionaries are
    /// loaded, none stored.
    static func readFormat(_ environment: Environment) throws -> PayloadDictionaries {
        try environment.readOpeningDatabases { txn in
            guard let meta = try txn.openDatabase(StoreDatabases.metaName, create: false) else {
                throw EventStoreError.readOnlyNoLog(reason: "it holds no `meta` database: it is not a paylog store, or was never opened")
            }
            guard let format = try StoredFormat.read(txn, meta: meta) else {
                throw EventStoreError.readOnlyNoLog(reason: "it records no log format: it was never opened read-write")
            }
            _ = try ChainHead.load(txn, meta: meta)
            guard format == StoreKeys.currentFormat else {
                if format > StoreKeys.currentFormat {
                    throw EventStoreError.unsupportedFormat(found: format, supported: StoreKeys.currentFormat)
                }
                throw EventStoreError.readOnlyNeedsMigration(format: format)
            }
            return try PayloadDictionaries.open(given: nil, in: txn, meta: meta)
        }
    }

    /// Attaches each projection's live view of a read-only store as it stands, without catching it up: returns why
    /// the views cannot be read (a view of another version than this release's, or behind the log), or nil when
    /// every view is current.
    static func attachViewsAsTheyStand(_ environment: Environment, _ databases: StoreDatabases) throws -> String? {
        try environment.readOpeningDatabases { txn in
            let head = try ChainHead.load(txn, databases).position
            var problems: [String] = []
            for projection in databases.projections {
                guard let checkpoint = try ProjectionCheckpoint.load(projection.name, txn, databases.meta) else {
                    problems.append("the \(projection.name) view was never built")
                    continue
                }
                guard checkpoint.version == projection.version else {
                    problems.append("the \(projection.name) view is of version \(checkpoint.version), and this release reads \(projection.version)")
                    continue
                }
                var set = ViewRegistry.ViewSet(generation: checkpoint.generation, databases: [:])
                for name in projection.databaseNames {
                    let physical = ViewRegistry.physicalName(name, generation: checkpoint.generation)
                    set.databases[name] = try txn.openDatabase(physical, create: false)
                }
                guard set.databases.count == projection.databaseNames.count else {
                    problems.append("a database of the \(projection.name) view is missing")
                    continue
                }
                if checkpoint.position < head {
                    problems.append("the \(projection.name) view is \(head - checkpoint.position) event(s) behind the log")
                    continue
                }
                databases.views.setActive(projection.name, set)
            }
            return problems.isEmpty ? nil : problems.joined(separator: "; ")
        }
    }
}
