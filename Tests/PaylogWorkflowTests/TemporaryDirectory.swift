import Foundation

/// A fresh directory under the system temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
    let path: String

    init(_ name: String = "paylog-workflow") {
        path = NSTemporaryDirectory() + "\(name)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
