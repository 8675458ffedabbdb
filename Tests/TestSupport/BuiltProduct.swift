import Foundation

/// Finds executables the package built, next to the running test bundle.
public enum BuiltProduct {
    /// The path of the built executable `name` (e.g. `paylog`, `paylog-torture`).
    public static func path(_ name: String) throws -> String {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        let fallback = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/\(name)").path
        guard FileManager.default.isExecutableFile(atPath: fallback) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: fallback])
        }
        return fallback
    }
}
