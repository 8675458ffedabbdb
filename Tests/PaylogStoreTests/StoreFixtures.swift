import Foundation
import PaylogStore

/// Small builders shared by the store tests.
enum StoreFixtures {
    static func event(_ type: String = "Tick", _ text: String = "payload", id: UUID = UUID()) -> NewEvent {
        NewEvent(id: id, type: type, payload: Data(text.utf8), observedAt: Timestamp(microseconds: 1_700_000_000_000_000),
                 correlationID: "corr", causationID: "cause", actor: "test")
    }

    /// The path of a product built next to the running test bundle.
    static func product(_ name: String) throws -> String {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        let fallback = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/\(name)").path
        guard FileManager.default.isExecutableFile(atPath: fallback) else { throw FixtureError.missingProduct(name) }
        return fallback
    }

    enum FixtureError: Error { case missingProduct(String) }
}
