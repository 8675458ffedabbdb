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

    private let state = Mutex<(active: [String: ViewSet], green: [String: ViewSet])>(([:], [:]))

    static func physicalName(_ logical: String, generation: UInt64) -> String {
        generation == 0 ? logical : "\(logical)#\(generation)"
    }

    /// The live views of every projection, for readers and the writer.
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

    func setActive(_ projection: String, _ set: ViewSet) { state.withLock { $0.active[projection] = set } }
    func setGreen(_ projection: String, _ set: ViewSet?) { state.withLock { $0.green[projection] = set } }

    /// Makes the green view live. Call only after the transaction that moved the checkpoint has committed.
    func promote(_ projection: String) {
        state.withLock { value in
            if let green = value.green.removeValue(forKey: projection) { value.active[projection] = green }
        }
    }
}
