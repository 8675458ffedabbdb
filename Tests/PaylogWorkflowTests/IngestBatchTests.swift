import Foundation
import PaylogStore
import Synchronization
import TestSupport
import Testing

@testable import PaylogWorkflow

@Suite("Batched ingest")
struct IngestBatchTests {
    /// What a log holds, without the commit times: per position the id, stream, version, type, declared tags and
    /// payload.
    private static func contents(_ store: EventStore) throws -> [String] {
        var rows: [String] = []
        try store.forEach { event in
            rows.append(
                "\(event.position) \(event.id) \(event.streamID)#\(event.version) \(event.type) \(event.tags ?? ["-"]) "
                    + (try event.payload.base64EncodedString()))
            return true
        }
        return rows
    }

    @Test(
        "any batch size (each prepared while the previous is written) records exactly what line-by-line recording does, with the same report",
        arguments: [7, 256, 1_024])
    func sameAsOneByOne(batchSize: Int) async throws {
        var lines = try DemoDay(payments: 40, seed: 3).plan().lines
        // Bad lines in the middle: unreadable JSON, an unroutable callback, an unreadable launch URL (its error
        // found while the batch is prepared, reported in line order), a blank line.
        lines.insert("{not json", at: 5)
        lines.insert(#"{"kind":"callback","at":"2026-03-02T10:00:00Z","url":"myshop://cb?data=%7B%22status%22%3A%22ok%22%2C%22state%22%3A%22nobody%22%7D","provider":"square"}"#, at: 50)
        lines.insert(#"{"kind":"request","payment":"pay-bad","at":"2026-03-02T10:00:00Z","url":"square-commerce-v1://payment/create?data=%7Bnot"}"#, at: 55)
        lines.insert("", at: 60)
        // Callbacks naming no provider (read ahead while the batch is prepared): one whose URL does not parse,
        // one whose URL names no provider, and the same for a payment that was never recorded (its provider is
        // looked up first, then the callback read ahead is used).
        lines.insert(#"{"kind":"callback","at":"2026-03-02T10:00:00Z","url":"%zz not a url"}"#, at: 65)
        lines.insert(#"{"kind":"callback","at":"2026-03-02T10:00:00Z","url":"myshop://cb?status=ok"}"#, at: 70)
        lines.insert(#"{"kind":"callback","payment":"pay-bad","at":"2026-03-02T10:00:00Z","url":"myshop://cb?status=ok"}"#, at: 75)
        // Callbacks naming no provider but marking a payment: read ahead as iZettle's, which the session must use
        // only for an iZettle payment — here a Square one's and a SumUp one's, and an unknown payment's.
        for scheme in ["square-commerce-v1:", "sumupmerchant:"] {
            let request = try #require(lines.first { $0.contains(#""kind":"request""#) && $0.contains(scheme) })
            let payment = try #require(request.firstMatch(of: /"payment":"([^"]+)"/)?.1)
            lines.append(#"{"kind":"callback","at":"2026-03-02T10:00:00Z","url":"myshop://cb?paylog_payment=\#(payment)&status=ok&reference=\#(payment)"}"#)
        }
        lines.append(#"{"kind":"callback","at":"2026-03-02T10:00:00Z","url":"myshop://cb?paylog_payment=pay-nobody&status=ok"}"#)
        var results: [(IngestReport, [String])] = []
        for size in [nil, 1, batchSize] {
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let store = try PaymentWorkflow.openStore(at: dir.path)
            let report = await Self.ingest(lines, batchSize: size, into: store)
            results.append((report, try Self.contents(store)))
            #expect(try store.verifyChain().isIntact)
            store.close()
        }
        let (lineByLine, oneByOne, batched) = (results[0], results[1], results[2])
        #expect(lineByLine.0 == oneByOne.0)
        #expect(lineByLine.1 == oneByOne.1)
        #expect(oneByOne.0 == batched.0)
        #expect(oneByOne.1 == batched.1)
        #expect(batched.0.rejected >= 3 && batched.0.accepted > 100)
        #expect(batched.0.errors.contains { $0.line == 56 && $0.message.contains("Square `data`") }, "\(batched.0.errors)")
        #expect(batched.0.errors.map(\.line) == batched.0.errors.map(\.line).sorted())
        #expect(batched.0.errors.first?.line == 6)
        #expect(batched.0.errors.contains { $0.line == 66 }, "\(batched.0.errors)")
        #expect(batched.0.errors.contains { $0.line == 71 && $0.message.contains("neither Square data") }, "\(batched.0.errors)")
    }

    /// Lines handed out one by one; before line `gate` it waits until `open()` says so (at most 20 s): a parsing
    /// side that falls behind the writer at a known point. (The writer marks a batch recorded before committing it,
    /// so a batch visible in the store is already marked.)
    private struct GatedLines: Sequence, IteratorProtocol {
        var lines: ArraySlice<String>
        let gate: Int
        let open: @Sendable () -> Bool
        var handedOut = 0

        mutating func next() -> String? {
            guard let line = lines.popFirst() else { return nil }
            if handedOut == gate {
                let deadline = Date().addingTimeInterval(20)
                while !open() && Date() < deadline { usleep(2_000) }
            }
            handedOut += 1
            return line
        }
    }

    /// The sizes of the batches `ingest` handed on, in order, and its report.
    private static func batches(
        _ lines: some Sequence<String>, batchSize: Int, into store: EventStore
    ) async -> (sizes: [Int], report: IngestReport) {
        let sizes = Mutex<[Int]>([])
        let report = await PaymentWorkflow(store: store, actor: "t").ingest(
            lines: lines, defaultKind: nil, batchSize: batchSize, observingBatches: { size in sizes.withLock { $0.append(size) } })
        return (sizes.withLock { $0 }, report)
    }

    @Test("batches are cut when the writer has nothing left to record: at least 512 lines, at most the batch size, every line once")
    func batchesFollowTheWriter() async throws {
        let lines = try DemoDay(payments: 500, seed: 13).plan().lines
        #expect(lines.count > 1_800)
        for (batchSize, source) in [(300, lines), (4_096, lines)] {
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let store = try PaymentWorkflow.openStore(at: dir.path)
            defer { store.close() }
            let (sizes, report) = await Self.batches(source, batchSize: batchSize, into: store)
            #expect(report.rejected == 0)
            #expect(sizes.reduce(0, +) == report.accepted)
            #expect(sizes.allSatisfy { $0 <= batchSize })
            #expect(sizes.dropLast().allSatisfy { $0 >= min(512, batchSize) }, "\(sizes)")
        }
        // The parsing side falls behind: after 600 lines it waits until the first batch (512) is recorded. The
        // writer then has nothing to do, so the next batch is handed on as soon as it holds 512 lines — not held until
        // it doubles, which made 512 lines, then the other 588 of the 1,100 in one batch.
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try PaymentWorkflow.openStore(at: dir.path)
        defer { store.close() }
        let gated = GatedLines(lines: lines[..<1_100], gate: 600, open: { ((try? store.lastPosition()) ?? 0) > 0 })
        let (sizes, report) = await Self.batches(gated, batchSize: 4_096, into: store)
        #expect(report.rejected == 0)
        #expect(sizes == [512, 512, 76])
    }

    @Test("the default batches, cut as the writer frees up, record exactly what small batches do")
    func growingBatchesSameAsSmall() async throws {
        let lines = try DemoDay(payments: 500, seed: 11).plan().lines
        // Enough lines for several default batches of at least 512.
        #expect(lines.count > 512 + 1_024)
        var results: [(IngestReport, [String])] = []
        for size in [7, 4_096] {
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let store = try PaymentWorkflow.openStore(at: dir.path)
            let report = await PaymentWorkflow(store: store, actor: "t").ingest(lines: lines, batchSize: size)
            results.append((report, try Self.contents(store)))
            #expect(try store.verifyChain().isIntact)
            store.close()
        }
        #expect(results[0].0 == results[1].0)
        #expect(results[0].1 == results[1].1)
        #expect(results[1].0.rejected == 0 && results[1].0.accepted == lines.count)
    }

    @Test("a payment's lines in one batch are each decided against the payment as the lines before them left it")
    func linesOfOneBatchSeeEachOther() async throws {
        let plan = try DemoDay(payments: 30, seed: 8).plan().lines
        // A Square payment's lines (request, app switch, callback, …), then in the same batch: the same callback
        // again (nothing to append), the callback with one more parameter (a repeat, recorded as such), an operator's
        // failure (refused: the payment succeeded), and a failure of another payment of the batch.
        func lines(of payment: Substring) -> [String] {
            plan.filter { $0.contains("\"\(payment)\"") || $0.contains("paylog_payment=\(payment)&") }
        }
        // One whose day holds a request, an app switch and one successful callback, nothing else.
        let payment = try #require(plan.lazy.filter { $0.contains("square-commerce-v1:") }
            .compactMap { $0.firstMatch(of: /"payment":"([^"]+)"/)?.1 }
            .first { payment in
                let own = lines(of: payment)
                let successes = own.filter { $0.contains(#""kind":"callback""#) && $0.contains("%22ok%22") }
                return own.count == 3 && successes.count == 1
            })
        var lines = lines(of: payment)
        let callback = try #require(lines.last { $0.contains(#""kind":"callback""#) })
        lines += [
            callback, callback.replacingOccurrences(of: "paylog_payment=", with: "extra=1&paylog_payment="),
            #"{"kind":"fail","payment":"\#(payment)","at":"2026-11-21T23:00:00Z","reason":"operator"}"#,
        ]
        #expect(lines.count == 6, "\(lines)")
        var results: [(IngestReport, [String])] = []
        for batchSize in [nil, 1_024] {
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let store = try PaymentWorkflow.openStore(at: dir.path)
            let report = await Self.ingest(lines, batchSize: batchSize, into: store)
            results.append((report, try Self.contents(store)))
            let rebuilt = try ProjectionRebuild.run(store)
            #expect(rebuilt.differenceCount == 0, "\(rebuilt.differences.prefix(3))")
            store.close()
        }
        #expect(results[0].0 == results[1].0)
        #expect(results[0].1 == results[1].1)
        // The identical callback appended nothing, the changed one was recorded as a repeat, the failure refused.
        #expect(results[1].0.rejected == 1 && results[1].0.errors.first?.line == lines.count, "\(results[1].0.errors)")
        #expect(results[1].1.filter { $0.contains(" CallbackReceived ") }.count == 2, "\(results[1].1)")
    }

    /// `lines` ingested into `store` in batches of `batchSize`, or with nil line by line, as the HTTP observations
    /// stream records them (nothing prepared ahead).
    private static func ingest(_ lines: [String], batchSize: Int?, into store: EventStore) async -> IngestReport {
        let workflow = PaymentWorkflow(store: store, actor: "t")
        if let batchSize { return await workflow.ingest(lines: lines, batchSize: batchSize) }
        var report = IngestReport()
        for (index, line) in lines.enumerated() { await workflow.ingest(line: line, number: index + 1, into: &report) }
        return report
    }

    /// Every row of the status view's databases, as `database key → value` in key order.
    private static func view(_ store: EventStore) throws -> [String] {
        try store.readViews { txn, databases in
            var rows: [String] = []
            for name in PaymentsProjection().databaseNames {
                try txn.withCursor(databases[name]) { cursor in
                    var found = try cursor.move(.first)
                    while found {
                        let (key, value) = cursor.current()
                        rows.append("\(name) \(String(decoding: key, as: UTF8.self)) → \(value.map { String($0, radix: 16) }.joined())")
                        found = try cursor.move(.next)
                    }
                }
            }
            return rows
        }
    }

    @Test("the status view a batched ingest leaves (each append handing the view its decided events) is byte for byte the one appends through the queue leave, and the one the log rebuilds to")
    func decidedEventsLeaveTheSameView() async throws {
        var lines = try DemoDay(payments: 120, seed: 21).plan().lines
        // Duplicates (already recorded), and a line that appends nothing new after its payment failed.
        lines += lines.prefix(40)
        var views: [[String]] = []
        for batchSize in [nil, 64] {
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let store = try PaymentWorkflow.openStore(at: dir.path)
            let report = await Self.ingest(lines, batchSize: batchSize, into: store)
            #expect(report.rejected == 0 && report.eventsAppended > 300)
            views.append(try Self.view(store))
            let rebuilt = try ProjectionRebuild.run(store)
            #expect(rebuilt.differenceCount == 0, "\(rebuilt.differences.prefix(3))")
            store.close()
        }
        // 120 payments; their routing keys are the events' tags, which the store indexes (the rebuild above
        // compared that index with the records).
        #expect(views[0].count == 120)
        #expect(views[0] == views[1])
    }

    @Test("a batch commits once: ingesting a file takes a handful of group commits, and again appends nothing")
    func fewCommitsAndIdempotent() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try PaymentWorkflow.openStore(at: dir.path)
        defer { store.close() }
        let lines = try DemoDay(payments: 60, seed: 9).plan().lines
        let workflow = PaymentWorkflow(store: store, actor: "t")
        let first = await workflow.ingest(lines: lines, batchSize: 100)
        #expect(first.rejected == 0 && first.eventsAppended > 0)
        #expect(try store.lastPosition() == UInt64(first.eventsAppended))
        let again = await workflow.ingest(lines: lines)
        #expect(again.eventsAppended == 0 && again.accepted == first.accepted)
        #expect(try store.lastPosition() == UInt64(first.eventsAppended))
    }
}
