import Foundation
import Synchronization
import LMDBKit
import PaylogStore
import PaylogWorkflow
import TestSupport
import Testing

@Suite("Whole-log replay")
struct LogReplayTests {
    /// A store holding a small demo day, closed.
    func populated(_ path: String, payments: Int = 30) async throws {
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: path), actor: "t")
        let report = await workflow.ingest(lines: try DemoDay(payments: payments, seed: 11).plan().lines)
        #expect(report.rejected == 0)
        workflow.store.close()
    }

    func edit(_ path: String, database: String, _ change: (borrowing Transaction, Database) throws -> Void) throws {
        let env = try Environment(path: path)
        let db = try env.openDatabase(database, create: false)
        try env.write { txn in try change(txn, db) }
        env.close()
    }

    @Test("a replay beside a writer that keeps appending compares the views at one position: no drift, chain intact")
    func besideAppends() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await populated(dir.path, payments: 200)
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        // The replays on a thread of their own, the appends here: neither waits for the other's turn on the pool.
        let finished = Mutex<Result<[ReplayReport], any Error>?>(nil)
        let store = workflow.store
        Thread {
            let result = Result { try (0..<6).map { _ in try LogReplay.run(store) } }
            finished.withLock { $0 = result }
        }.start()
        var recorded = 0
        while finished.withLock({ $0 == nil }) {
            let url = "sumupmerchant://pay/1.0?affiliate-key=k&app-id=com.shop&total=1.00&currency=EUR&title=T"
                + "&foreign-tx-id=late-\(recorded)&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail"
            _ = try await workflow.record(.request(
                payment: "late-\(recorded)", at: Timestamp(microseconds: 1_800_000_000_000_000), url: url, appVersion: "1.88.0"))
            recorded += 1
        }
        let reports = try #require(finished.withLock { $0 }).get()
        #expect(recorded > 0)
        for report in reports {
            #expect(report.projectionsMatch, "\(report.differences.prefix(3))")
            #expect(report.chain.isIntact, "\(report.chain.problem ?? "")")
        }
        // Each compared the views as they stood at the position it folded to: so many payments, no more.
        #expect(reports.allSatisfy { $0.payments >= 200 && $0.payments <= 200 + recorded })
        let after = try LogReplay.run(workflow.store)
        let head = try workflow.store.lastPosition()
        #expect(after.projectionsMatch && after.events == head && after.payments == 200 + recorded)
    }

    @Test("a head a million positions past the log's end (events removed, or the head edited) is reported, not chased")
    func headFarPastTheLog() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await populated(dir.path)
        try StoreTampering.setHeadPosition(of: dir.path, to: 1_000_000)
        let finished = Mutex<Result<ReplayReport, any Error>?>(nil)
        let path = dir.path
        Thread {
            let result = Result {
                let store = try PaymentWorkflow.openStore(at: path)
                defer { store.close() }
                return try LogReplay.run(store)
            }
            finished.withLock { $0 = result }
        }.start()
        // Opening the store and the replay each chased the head and never returned; a minute is far more than this
        // log takes. (On a timeout the thread is left running, and the suite's process ends with it.)
        let deadline = ContinuousClock.now + .seconds(60)
        while finished.withLock({ $0 == nil }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let report = try #require(try finished.withLock { $0 }?.get(), "the replay did not finish")
        #expect(!report.chain.isIntact && report.exitStatus == 3)
        #expect(report.chain.problem?.contains("head says 1000000") == true, "\(report.chain.problem ?? "")")
    }

    @Test("a healthy log: views match, chain intact, the planted violation is the only error finding")
    func healthy() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await populated(dir.path)
        let store = try PaymentWorkflow.openStore(at: dir.path)
        defer { store.close() }
        var progressCalls = 0
        let report = try LogReplay.run(store) { done, total in
            progressCalls += 1
            #expect(done <= total)
        }
        #expect(progressCalls > 0)
        #expect(report.projectionsMatch && report.chain.isIntact)
        #expect(report.events == (try store.lastPosition()))
        #expect(report.payments == 30)
        #expect(report.findings.listed.filter { $0.severity == .error }.map(\.payment) == ["pay-0012"])
        #expect(report.exitStatus == 5)
    }

    @Test("an edited live view is reported as projection drift (exit 4) naming the payment")
    func drift() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try await populated(dir.path)
        try edit(dir.path, database: "payments") { txn, db in
            var value = try #require(try txn.value(for: Array("pay-0003".utf8), in: db))
            value[value.count - 1] ^= 0x01
            try txn.put(value, for: Array("pay-0003".utf8), in: db)
            _ = try txn.delete(Array("pay-0004".utf8), in: db)
        }
        let store = try PaymentWorkflow.openStore(at: dir.path)
        defer { store.close() }
        let report = try LogReplay.run(store)
        #expect(!report.projectionsMatch)
        #expect(report.differences.map(\.key) == ["pay-0003", "pay-0004"])
        #expect(report.differences.map(\.kind) == ["different value", "missing in live"])
        #expect(report.exitStatus == 4)
    }

    @Test("a tampered event is reported as a broken chain (exit 3), even when the record no longer decodes")
    func brokenChain() async throws {
        for breakDecoding in [false, true] {
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            try await populated(dir.path, payments: 6)
            try edit(dir.path, database: "events") { txn, db in
                let key = withUnsafeBytes(of: UInt64(5).bigEndian) { Array($0) }
                var value = try #require(try txn.value(for: key, in: db))
                if breakDecoding {
                    value = Array(value.prefix(40))  // cut the record short
                } else {
                    value[value.count - 1] ^= 0x01
                }
                try txn.put(value, for: key, in: db)
            }
            let store = try PaymentWorkflow.openStore(at: dir.path)
            let report = try LogReplay.run(store)
            #expect(report.chain.firstBrokenPosition == 5)
            #expect(report.exitStatus == 3)
            if breakDecoding { #expect(report.rebuildError != nil) }
            store.close()
        }
    }

    @Test("projection exactly once across a crash between append and projection: catch-up applies each event once")
    func exactlyOnceAfterCrash() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let lines = try DemoDay(payments: 20, seed: 3).plan().lines
        // The first half is recorded with the view kept; then the process "dies" before the view sees the rest:
        // the second half is appended by a store that has no projection (the view's checkpoint stays behind).
        let half = lines.count / 2
        do {
            let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
            _ = await workflow.ingest(lines: lines[..<half])
            workflow.store.close()
        }
        do {
            let plain = try EventStore(path: dir.path)
            let full = try PaymentWorkflow.openStore(at: dir.path + "-scratch")
            // Decide the second half against a complete view, then append the events without any projection.
            let workflow = PaymentWorkflow(store: full, actor: "t")
            _ = await workflow.ingest(lines: lines[..<half])
            let before = try full.lastPosition()
            _ = await workflow.ingest(lines: lines[half...])
            let tail = try full.read(from: before + 1, limit: 100_000)
            for event in tail {
                let new = NewEvent(id: event.id, type: event.type, schemaVersion: event.schemaVersion, payload: try event.payload,
                                   observedAt: event.observedAt, actor: event.actor)
                _ = try await plain.append([new], to: event.streamID)
            }
            plain.close()
            full.close()
            try? FileManager.default.removeItem(atPath: dir.path + "-scratch")
        }
        let store = try PaymentWorkflow.openStore(at: dir.path)  // catches the view up from its checkpoint
        defer { store.close() }
        let report = try LogReplay.run(store)
        #expect(report.projectionsMatch, "a twice-applied or skipped event would make the view differ from a rebuild")
        let versions = try PaymentsProjection.payments(in: store).map(\.version).reduce(0, +)
        #expect(versions == (try store.lastPosition()))
    }
}
