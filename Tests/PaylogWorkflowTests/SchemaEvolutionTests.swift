import Foundation
import PaylogDomain
import PaylogProviders
import PaylogStore
import PaylogWorkflow
import PropertyBased
import Testing

@Suite("Schema evolution")
struct SchemaEvolutionTests {
    @Test("an older payload is upcast on read through the chain; a missing step is a clear error")
    func upcasting() throws {
        // A hypothetical schema 0 of AppSwitched stored the note as bare UTF-8 text.
        let zeroToOne = Upcaster(type: "AppSwitched", fromVersion: 0) { data in
            try EventCodec.payload(.appSwitched(AppSwitched(note: String(decoding: data, as: UTF8.self))))
        }
        let decoded = try EventCodec.decode(
            type: "AppSwitched", schemaVersion: 0, payload: Data("tapped Pay".utf8), position: 9, upcasters: [zeroToOne])
        #expect(decoded == .appSwitched(AppSwitched(note: "tapped Pay")))
        #expect { _ = try EventCodec.decode(type: "AppSwitched", schemaVersion: 0, payload: Data(), position: 9, upcasters: []) } throws: {
            "\($0)".contains("no upcaster from schema 0 to 1") && "\($0)".contains("position 9")
        }
        // Current payloads pass through untouched, whatever upcasters exist.
        let current = try EventCodec.payload(.appSwitched(AppSwitched(note: "x")))
        #expect(try EventCodec.decode(type: "AppSwitched", schemaVersion: 1, payload: current, position: 1, upcasters: [zeroToOne])
            == .appSwitched(AppSwitched(note: "x")))
    }
}
