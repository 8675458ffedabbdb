import Foundation
import PaylogDomain
@testable import PaylogStore
@testable import PaylogWorkflow
import TestSupport
import Testing

/// ``PaymentsReadingFloor``, the projection behind `paylog bench --scenario replay-floor`: a rebuild with it must
/// read every event the payments rebuild reads and refuse what that rebuild refuses, while evolving nothing and
/// writing no row, or its figure would not be the floor of the replay it is set beside.
@Suite("The payments reading floor")
struct PaymentsReadingFloorTests {
    /// A store `name` in `dir` holding a demo day of `payments` payments (every event kind at 40), closed again;
    /// returns its path.
    static func demoLog(in dir: TemporaryDirectory, name: String = "log", payments: Int = 40) async throws -> String {
        let path = dir.path + "/" + name
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: path), actor: "t")
        let report = await workflow.ingest(lines: try DemoDay(payments: payments, seed: 5).plan().lines)
        #expect(report.rejected == 0)
        workflow.store.close()
        return path
    }

    @Test("a rebuild with it reads and folds every event, cut into ranges or not, and leaves no row")
    func readsEverythingWritesNothing() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try EventStore(path: try await Self.demoLog(in: dir), projections: [PaymentsReadingFloor()])
        defer { store.close() }
        let events = try store.lastPosition()
        let types = Set(try store.read(from: 1, limit: 100_000).map(\.type))
        #expect(types == Set(PaymentEventKind.allCases.map(\.typeName)))
        for (ranges, open) in [(1, 65_536), (3, 2)] {
            let build = LogOrderBuild(
                PaymentsReadingFloor(), snapshot: events, scratchDirectory: dir.path + "/scratch-\(ranges)", parts: 2,
                ranges: ranges, sortMemory: 4_096, maximumOpen: open)
            defer { build.close() }
            #expect(build.partitions.allSatisfy { $0.folder is PaymentsReadingFloorFolder })
            try build.foldBlocking(store.environment, store.databases) { _ in }
            // Every position read once by the partition whose range holds it; every event folded at least once
            // (a payment cut by a range's end or deferred is folded again on its own).
            #expect(build.partitions.map(\.read).reduce(0, +) == events)
            #expect(build.partitions.map(\.folded).reduce(0, +) >= events)
            #expect(try build.merged().nextBatch(100).viewRows.isEmpty)
        }
        // Through the store, as the bench runs it: the fold takes time, the new (empty) generation goes live, and
        // the log is as it was.
        let generation = try #require(store.viewGeneration(of: PaymentsReadingFloor().name))
        let timings = try await store.rebuildProjections()
        #expect(timings.fold > 0)
        #expect(store.viewGeneration(of: PaymentsReadingFloor().name) == generation + 1)
        #expect(try store.lastPosition() == events)
    }

    @Test("it refuses a damaged payload of every kind the fold reads, or one of a newer schema, where the payments rebuild does, naming the same position")
    func refusesWhatTheFoldRefuses() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // Field 1, length-delimited, 255 bytes long in a 3-byte payload: each kind's decoder runs past the end.
        // (An app switch's payload is not read by the fold: `paylog verify` checks it.)
        let damaged = PaymentEventKind.allCases.filter { $0 != .appSwitched }.map { kind in
            NewEvent(type: kind.typeName, payload: Data([0x0A, 0xFF, 0x01]))
        }
        let newer = NewEvent(
            type: PaymentEventKind.requested.typeName, schemaVersion: EventCodec.currentSchemaVersion + 1, payload: Data())
        #expect(damaged.count == 5)
        for (index, event) in (damaged + [newer]).enumerated() {
            let path = try await Self.demoLog(in: dir, name: "log-\(index)", payments: 10)
            // Appended without the status view, which would refuse it; the last event of the log.
            let bare = try EventStore(path: path, projections: [])
            let bad = try await bare.append([event], to: "pay-bad").positions.lowerBound
            bare.close()
            let store = try EventStore(path: path, projections: [])
            defer { store.close() }
            #expect(try store.lastPosition() == bad)
            let refusals = [
                try Self.refusal(PaymentsProjection(), upTo: bad, store, scratch: path + "-scratch-p"),
                try Self.refusal(PaymentsReadingFloor(), upTo: bad, store, scratch: path + "-scratch-f"),
            ]
            #expect(refusals[0] == refusals[1], "\(refusals)")
            #expect(refusals[0].contains("position \(bad)"), "\(refusals[0])")
        }
    }

    /// What a one-thread rebuild of `projection` over the log up to `snapshot` fails with.
    static func refusal<Projection: StreamFoldingProjection>(
        _ projection: Projection, upTo snapshot: UInt64, _ store: EventStore, scratch: String
    ) throws -> String {
        let build = LogOrderBuild(projection, snapshot: snapshot, scratchDirectory: scratch, parts: 1)
        defer { build.close() }
        let error = #expect(throws: EventCodecError.self) {
            try build.foldBlocking(store.environment, store.databases) { _ in }
        }
        return error.map { "\($0)" } ?? ""
    }
}
