import Foundation

/// Where a benchmark run keeps its stores: a fresh temporary directory removed at the end, or, with `--keep DIR`,
/// `DIR` itself, left in place for inspection.
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

    /// Removes the store at `path` unless the run keeps its stores.
    func discard(_ path: String) {
        if !keeps { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Removes the whole workspace unless the run keeps its stores.
    func removeAll() {
        if !keeps { try? FileManager.default.removeItem(atPath: root) }
    }
}
