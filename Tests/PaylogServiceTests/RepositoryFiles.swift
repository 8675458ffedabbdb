import Foundation

/// Files of this repository that the tests hold the server to: its docs, and its sources.
enum RepositoryFiles {
    /// The repository's root directory.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The text of the file at `path`, relative to the root (e.g. `Docs/http-api.md`).
    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }
}
