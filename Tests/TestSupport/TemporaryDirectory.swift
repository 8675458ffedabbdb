import Foundation

/// A fresh directory under the system temporary directory, removed by ``remove()``.
public struct TemporaryDirectory: Sendable {
    /// The directory's path.
    public let path: String

    /// Creates `<tmp>/<name>-<uuid>`.
    public init(_ name: String = "paylog-test") {
        path = NSTemporaryDirectory() + "\(name)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Wraps a directory made earlier (to reopen what a previous step left there).
    public init(existing path: String) {
        self.path = path
    }

    /// Removes the directory and everything in it.
    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
