import Foundation
import PaylogDomain
@testable import PaylogStore
@testable import PaylogWorkflow
import Testing

/// The kind a rebuild reads from a ``FoldEvent``'s type bytes, held to ``PaymentEventKind/init(typeName:)``.
@Suite("Payment event kinds read in place")
struct PaymentEventKindFoldTests {
    /// The kind read in place from a stored event of type `type`.
    private static func kind(ofType type: String) throws -> PaymentEventKind? {
        let dictionaries = try PayloadDictionaries.inMemory([:], current: 0)
        let event = NewEvent(
            id: UUID(), type: type, schemaVersion: 1, payload: Data("{}".utf8), observedAt: nil, correlationID: "",
            causationID: "", actor: "")
        let (value, _) = RecordCodec.storedValue(
            event, streamID: "pay-1", version: 1, position: 1, recordedAt: Timestamp(microseconds: 1), previous: .genesis,
            dictionaries: dictionaries)
        return try value.withUnsafeBytes { raw in
            PaymentEventKind(try FoldEvent(raw, position: 1, dictionaries: dictionaries, scratch: FoldScratch()))
        }
    }

    @Test("every kind reads back from its type name, and a name of the same length but other bytes from none")
    func sameAsByName() throws {
        for kind in PaymentEventKind.allCases {
            #expect(try Self.kind(ofType: kind.typeName) == kind)
            // Same length, one byte changed (first, last): the length alone must not decide.
            var first = Array(kind.typeName.utf8)
            first[0] ^= 0x20
            #expect(try Self.kind(ofType: String(decoding: first, as: UTF8.self)) == nil)
            var last = Array(kind.typeName.utf8)
            last[last.count - 1] = UInt8(ascii: "_")
            #expect(try Self.kind(ofType: String(decoding: last, as: UTF8.self)) == nil)
        }
        for other in ["", "X", "BenchEvent", "Requested ", "Payment"] {
            #expect(try Self.kind(ofType: other) == PaymentEventKind(typeName: other))
            #expect(try Self.kind(ofType: other) == nil)
        }
    }
}
