import Foundation
import PaylogPresentation
import PaylogStore

/// Renders recorded events for people (one line each) and machines (JSON objects).
enum EventFormatting {
    static func line(_ event: RecordedEvent) -> String {
        let observed = event.observedAt.map { " observed \($0)" } ?? ""
        // Tags hold wire values (transaction ids): escaped, so that a control character in one cannot rewrite the line.
        let tags = event.tags.map { $0.isEmpty ? "" : "  tags \(TerminalText.escaped($0.joined(separator: " ")))" } ?? ""
        return "#\(event.position)  \(event.streamID) v\(event.version)  \(event.type)  recorded \(event.recordedAt)\(observed)  \(event.payloadByteCount) B\(tags)  \(event.hashHex.prefix(12))…"
    }

    /// - Throws: ``PaylogStore/EventStoreError/corruptRecord(position:reason:)`` when a compressed payload is damaged.
    static func json(_ event: RecordedEvent) throws(EventStoreError) -> [String: Any] {
        var object: [String: Any] = [
            "position": event.position, "stream": event.streamID, "version": event.version,
            "id": event.id.uuidString.lowercased(), "type": event.type, "schema_version": event.schemaVersion,
            "recorded_at": event.recordedAt.rfc3339, "payload_base64": try event.payload.base64EncodedString(),
            "hash": event.hashHex,
        ]
        if let observed = event.observedAt { object["observed_at"] = observed.rfc3339 }
        if !event.correlationID.isEmpty { object["correlation_id"] = event.correlationID }
        if !event.causationID.isEmpty { object["causation_id"] = event.causationID }
        if !event.actor.isEmpty { object["actor"] = event.actor }
        // Declared tags (log format 5): absent when the event declared none, as before format 5.
        if let tags = event.tags { object["tags"] = tags }
        return object
    }
}
