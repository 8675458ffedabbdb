import LMDBKit
import PaylogStore

/// A test projection noting, per position, how each event reached it: `plain` through
/// ``InlineProjection/apply(_:in:databases:)-(RecordedEvent,_,_)``, or `decided <text>` through
/// ``InlineProjection/apply(_:decided:in:databases:)`` with a `String` for `decided`.
struct DecidedNotingProjection: InlineProjection {
    let name = "decided-noting"
    let version: UInt64 = 1
    let databaseNames = ["notes"]

    func apply(_ event: RecordedEvent, in txn: borrowing Transaction, databases: ProjectionDatabases) throws {
        try txn.put(Array("plain".utf8), for: Self.key(event), in: databases["notes"])
    }

    func apply(_ event: RecordedEvent, decided: any Sendable, in txn: borrowing Transaction, databases: ProjectionDatabases) throws {
        guard let text = decided as? String else { return try apply(event, in: txn, databases: databases) }
        try txn.put(Array("decided \(text)".utf8), for: Self.key(event), in: databases["notes"])
    }

    static func key(_ event: RecordedEvent) -> [UInt8] { withUnsafeBytes(of: event.position.bigEndian) { Array($0) } }
}
