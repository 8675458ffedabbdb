import LMDBKit
import Synchronization

/// Which physical LMDB databases hold each inline projection's live ("blue") view, and the "green" view being
/// rebuilt beside it, if any. Generation `g` of logical database `d` is named `d` for g = 0, else `d#g`.
final class ViewRegistry: Sendable {
    /// One generation of one projection's databases.
    struct ViewSet: Sendable {
        var generation: UInt64
        var databases: [String: Database]
    }

    /// `known` holds every generation registered in this process: a retired generation's databases stay in the
    /// file (and its handles valid) until the next open, and a reader whose snapshot predates a swap still needs them.
    private let state = Mutex<(active: [String: ViewSet], green: [String: ViewSet], known: [String: [UInt64: ViewSet]])>(
        ([:], [:], [:]))

    static func physicalName(_ logical: String, generation: UInt64) -> String {
        generation == 0 ? logical : "\(logical)#\(generation)"
    }

    /// The views live in `txn`'s snapshot: for each projection, the generation its checkpoint names there. A
    /// reader must use this rather than ``active()``: a swap committed after its snapshot was taken would
    /// otherwise hand it the new generation as it stood before it caught up (or the old one after it stopped).
    func live(in txn: borrowing Transaction, meta: Database) throws -> ProjectionDatabases {
        let (active, known) = state.withLock { ($0.active, $0.known) }
        var byName: [String: Database] = [:]
        for (projection, set) in active {
            let generation = try ProjectionCheckpoint.load(projection, txn, meta)?.generation ?? set.generation
            let chosen = known[projection]?[generation] ?? set
            byName.merge(chosen.databases) { first, _ in first }
        }
        return ProjectionDatabases(byName: byName)
    }

    /// The live views of every projection, for the writer thread (which alone swaps them, so they cannot change
    /// under it).
    func active() -> ProjectionDatabases {
        state.withLock { value in
            var byName: [String: Database] = [:]
            for set in value.active.values { byName.merge(set.databases) { first, _ in first } }
            return ProjectionDatabases(byName: byName)
        }
    }

    /// The live and the green view set of one projection.
    func sets(of projection: String) -> (active: ViewSet?, green: ViewSet?) {
        state.withLock { ($0.active[projection], $0.green[projection]) }
    }

    func setActive(_ projection: String, _ set: ViewSet) {
        state.withLock { value in
            value.active[projection] = set
            value.known[projection, default: [:]][set.generation] = set
        }
    }

    func setGreen(_ projection: String, _ set: ViewSet?) {
        state.withLock { value in
            value.green[projection] = set
            if let set { value.known[projection, default: [:]][set.generation] = set }
        }
    }

    /// Makes the green view live. Call only after the transaction that moved the checkpoint has committed.
    func promote(_ projection: String) {
        state.withLock { value in
            if let green = value.green.removeValue(forKey: projection) { value.active[projection] = green }
        }
    }
}
