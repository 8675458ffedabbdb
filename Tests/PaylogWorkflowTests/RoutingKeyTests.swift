import Foundation
import PaylogDomain
import TestSupport
import Testing

@testable import PaylogStore
@testable import PaylogWorkflow

/// Routing keys (`ref:`, `ctx:`, `tx:`) since log format 5: declared by each event as its tags and indexed by the
/// store; derived by the status view only for events that declare none (recorded before). A key made known on both
/// sides routes to the later event's payment, as one index applied in log order would.
@Suite("Routing keys as declared tags")
struct RoutingKeyTests {
    static func requested(_ reference: String) -> PaymentEvent {
        .requested(Requested(
            launchURL: "sumupmerchant://pay/1.0?foreign-tx-id=\(reference)", provider: .sumup, amount: nil,
            reference: reference, apiVersion: "1.0", appVersion: nil, builtByPaylog: false))
    }

    /// Appends `event` to `payment`, declaring its routing keys or not.
    static func append(_ event: PaymentEvent, to payment: String, declared: Bool, _ store: EventStore) async throws -> UInt64 {
        var new = try EventCodec.encode(event, id: UUID(), observedAt: nil, actor: "t")
        #expect(new.tags == event.routingKeys)
        if !declared { new.tags = nil }
        return try await store.append([new], to: payment).positions.lowerBound
    }

    @Test("the workflow's events declare their routing keys, the store indexes them, and the view keeps no routes of its own")
    func declaredByTheWorkflow() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let report = await workflow.ingest(lines: try DemoDay(payments: 30, seed: 9).plan().lines)
        #expect(report.rejected == 0)
        let events = try workflow.store.read(from: 1, limit: 100_000)
        var expected: [String: TaggedEvent] = [:]
        for event in events {
            let tags = try #require(event.tags, "event \(event.position) declares its tags")
            #expect(tags == (try EventCodec.decode(event)).routingKeys)
            for tag in tags { expected[tag] = TaggedEvent(streamID: event.streamID, position: event.position) }
        }
        #expect(expected.count > 30)
        for (key, target) in expected {
            #expect(try workflow.store.taggedEvent(key) == target)
            #expect(try workflow.route(key) == target.streamID)
        }
        let routes = try workflow.store.readViews { txn, databases in try txn.count(databases["routes"]) }
        #expect(routes == 0)
    }

    @Test("a key made known by an undeclared event and by a declared one routes to the later, whichever it is",
          arguments: [false, true])
    func laterEventWins(declaredFirst: Bool) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try PaymentWorkflow.openStore(at: dir.path)
        defer { store.close() }
        let workflow = PaymentWorkflow(store: store, actor: "t")
        _ = try await Self.append(Self.requested("order-7"), to: "pay-a", declared: declaredFirst, store)
        #expect(try workflow.route("ref:order-7") == "pay-a")
        _ = try await Self.append(Self.requested("order-7"), to: "pay-b", declared: !declaredFirst, store)
        #expect(try workflow.route("ref:order-7") == "pay-b")
        _ = try await Self.append(Self.requested("order-7"), to: "pay-c", declared: declaredFirst, store)
        #expect(try workflow.route("ref:order-7") == "pay-c")
        // The same answer inside a write session, where ingest routes its lines.
        let inSession = try await store.withWriteSession { session in
            try SessionReading(session: session).route("ref:order-7")
        }
        #expect(inSession == "pay-c")
        #expect(try workflow.route("ref:order-8") == nil)
        // Both sides hold the key; a rebuild leaves them as the appends did.
        #expect(try ProjectionRebuild.run(store).differenceCount == 0)
    }

    @Test("an event whose declared tags are not the routing keys its payload gives is projection drift in a replay (exit 4)")
    func forgedTagsReported() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try PaymentWorkflow.openStore(at: dir.path)
        defer { store.close() }
        _ = try await Self.append(Self.requested("order-1"), to: "pay-a", declared: true, store)
        var forged = try EventCodec.encode(Self.requested("order-2"), id: UUID(), observedAt: nil, actor: "t")
        forged.tags = ["ref:order-1"]
        let position = try await store.append([forged], to: "pay-b").positions.lowerBound
        let report = try LogReplay.run(store)
        #expect(report.chain.isIntact)
        #expect(report.differenceCount == 1)
        #expect(report.differences.first?.key == "position \(position)")
        #expect(report.differences.first?.kind.contains("ref:order-2") == true)
        #expect(report.exitStatus == 4)
    }
}
