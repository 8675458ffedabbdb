import Foundation
import LMDBKit
import PaylogDomain
@testable import PaylogStore
@testable import PaylogWorkflow
import TestSupport
import Testing

/// ``PaymentsFolder``, the payments projection's own folder of a rebuild: held to the live view, including when
/// open payments are dropped and deferred (their slots emptied and reused) and when ranges cut payments apart, on a
/// log whose events declare their routing keys as tags (no `routes` rows) and on one whose events declare none, as
/// before log format 5 (every routing key a `routes` row).
@Suite("The payments folder")
struct PaymentsFolderTests {
    /// Every row of the payments projection's databases as the live view holds them, in key order.
    static func liveRows(_ store: EventStore, _ projection: PaymentsProjection) throws -> [ViewRow] {
        try store.readViews { txn, databases in
            try projection.databaseNames.flatMap { name in
                try txn.entries(of: databases[name]).map { ViewRow(database: name, key: $0.key, value: $0.value) }
            }
        }
    }

    /// A log as the builds before log format 5 recorded it: every event of `source`, in log order, appended to
    /// `target` (a store with the status view) in one write session, declaring no tags, so that the copy's view
    /// derives every routing key from the payloads into its `routes`.
    static func copyUndeclared(_ source: EventStore, into target: EventStore) async throws {
        let copies = try source.read(from: 1, limit: 1_000_000).map { event in
            (stream: event.streamID, event: NewEvent(
                id: event.id, type: event.type, schemaVersion: event.schemaVersion, payload: try event.payload,
                observedAt: event.observedAt, correlationID: event.correlationID, causationID: event.causationID,
                actor: event.actor, tags: nil))
        }
        try await target.withWriteSession { session in
            for copy in copies { _ = try session.append([copy.event], to: copy.stream) }
        }
    }

    @Test(
        "folded by the payments folder, any limit on open payments and any cut into ranges gives the live view's rows",
        arguments: [(open: 65_536, ranges: 1), (open: 2, ranges: 1), (open: 1, ranges: 3), (open: 5, ranges: 7)],
        [true, false])
    func matchesLiveView(open: (open: Int, ranges: Int), declared: Bool) async throws {
        let (open, ranges) = open
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path + "/declared"), actor: "t")
        let report = await workflow.ingest(lines: try DemoDay(payments: 40, seed: 5).plan().lines)
        #expect(report.rejected == 0)
        let store: EventStore
        if declared {
            store = workflow.store
        } else {
            store = try PaymentWorkflow.openStore(at: dir.path + "/undeclared")
            try await Self.copyUndeclared(workflow.store, into: store)
            workflow.store.close()
        }
        defer { store.close() }
        #expect(try store.read(from: 1, limit: 100_000).allSatisfy { ($0.tags != nil) == declared })
        // The folder decodes each kind on a path of its own: the log must hold every kind.
        let types = Set(try store.read(from: 1, limit: 100_000).map(\.type))
        #expect(types == Set(PaymentEventKind.allCases.map(\.typeName)))
        let merged = try Self.folderRows(store, scratch: dir.path + "/scratch", open: open, ranges: ranges) { build in
            if open < 40 || ranges > 1 {
                #expect(build.partitions.contains { $0.deferredCount > 0 }, "payments deferred or cut by a range's end")
            }
        }
        let live = try Self.liveRows(store, PaymentsProjection())
        // 40 payments, and their routing keys when the events declare none.
        let routes = live.filter { $0.database == "routes" }.count
        #expect(live.count - routes == 40)
        #expect(declared ? routes == 0 : routes > 40)
        #expect(merged.count == live.count)
        #expect(zip(merged, live).allSatisfy { $0.database == $1.database && $0.key == $1.key && $0.value == $1.value })
    }

    /// The rows the payments folder gives for `store`'s log, folded on two parts with at most `open` open payments a
    /// part and cut into `ranges` ranges; `inspect` sees the build once folded.
    static func folderRows(
        _ store: EventStore, scratch: String, open: Int = 65_536, ranges: Int = 1, inspect: (LogOrderBuild<PaymentsProjection>) -> Void = { _ in }
    ) throws -> [ViewRow] {
        let build = LogOrderBuild(
            PaymentsProjection(), snapshot: try store.lastPosition(), scratchDirectory: scratch, parts: 2, ranges: ranges,
            sortMemory: 4_096, maximumOpen: open)
        defer { build.close() }
        #expect(build.partitions.allSatisfy { $0.folder is PaymentsFolder })
        try build.foldBlocking(store.environment, store.databases) { _ in }
        inspect(build)
        let sorter = build.merged()
        var merged: [ViewRow] = []
        while case let rows = try sorter.nextBatch(500).viewRows, !rows.isEmpty { merged += rows }
        return merged
    }

    @Test("a failure observed before the report line that paid keeps its observed time in the folder's row too")
    func failureBeforeTheReportLine() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path + "/store"), actor: "t")
        defer { workflow.store.close() }
        let day = IngestOrderTests.paidThenGivenUp(callbackAt: "2026-11-21T09:01:30Z")
        #expect(await workflow.ingest(lines: [day.request, day.report, day.fail]).rejected == 0)
        let live = try Self.liveRows(workflow.store, PaymentsProjection())
        let payment = try #require(try PaymentsProjection.payment("pay-4", in: workflow.store))
        #expect(payment.failedBeforeSuccessAtMicroseconds != nil)
        let merged = try Self.folderRows(workflow.store, scratch: dir.path + "/scratch")
        #expect(merged.count == live.count)
        #expect(zip(merged, live).allSatisfy { $0.database == $1.database && $0.key == $1.key && $0.value == $1.value })
    }
}
