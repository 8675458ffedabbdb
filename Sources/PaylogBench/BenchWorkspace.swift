import Foundation

/// Where a benchmark run keeps its stores: a fresh temporary directory removed at the end, or, with `--keep DIR`,
/// `DIR` itself, left in place for inspection. A kept payment log is described in `DIR/payment-log.json`, so that
/// a later run with the same `--keep DIR` and log size reads it instead of building it again (a 10 M-event log
/// takes about four minutes to build). A run asking for another size stops rather than build over it.
struct BenchWorkspace: Sendable {
    /// The directory holding every store of the run.
    let root: String
    /// Whether the stores are kept after the run.
    let keeps: Bool

    /// A workspace under `keep`, or a new temporary directory when `keep` is nil.
    init(keep: String?) throws(BenchError) {
        if let keep {
            root = keep
            keeps = true
        } else {
            root = NSTemporaryDirectory() + "paylog-bench-\(UUID().uuidString)"
            keeps = false
        }
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            throw .filesystem(path: root, reason: error.localizedDescription)
        }
    }

    /// The path of a store called `name`, removing what an earlier run left there.
    func directory(_ name: String) -> String {
        let path = (root as NSString).appendingPathComponent(name)
        try? FileManager.default.removeItem(atPath: path)
        return path
    }

    /// The file, in a kept workspace, describing the payment log built there.
    static let paymentLogManifest = "payment-log.json"

    /// The payment log an earlier run kept here, when this run keeps its stores too, the log has `events` events
    /// and its store is still there; nil when there is none (build it).
    /// - Throws: ``BenchError/keptLogOfAnotherSize(directory:kept:asked:)`` when the workspace keeps a log of
    ///   another size: building over it would throw away a log that took minutes to build, so the run stops instead.
    ///
    /// The store is looked for in this workspace, under the name the manifest gives it: a kept directory copied or
    /// moved elsewhere reads its own copy, never the store at the path it was built in.
    func keptPaymentLog(events: Int) throws(BenchError) -> BuiltPaymentLog? {
        guard keeps else { return nil }
        let manifest = (root as NSString).appendingPathComponent(Self.paymentLogManifest)
        guard let data = FileManager.default.contents(atPath: manifest),
            var log = try? JSONDecoder().decode(BuiltPaymentLog.self, from: data)
        else { return nil }
        log.path = (root as NSString).appendingPathComponent((log.path as NSString).lastPathComponent)
        guard FileManager.default.fileExists(atPath: log.path + "/data.mdb") else { return nil }
        guard log.events == events else {
            throw .keptLogOfAnotherSize(directory: root, kept: log.events, asked: events)
        }
        return log
    }

    /// Describes `log` in the workspace's manifest when the run keeps its stores (see ``keptPaymentLog(events:)``).
    func keep(_ log: BuiltPaymentLog) {
        guard keeps, let data = try? JSONEncoder().encode(log) else { return }
        try? data.write(to: URL(fileURLWithPath: (root as NSString).appendingPathComponent(Self.paymentLogManifest)))
    }

    /// Removes the store at `path` unless the run keeps its stores.
    func discard(_ path: String) {
        if !keeps { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Removes the whole workspace unless the run keeps its stores.
    func removeAll() {
        if !keeps { try? FileManager.default.removeItem(atPath: root) }
    }
}
