import Foundation
import PaylogStore
import PaylogWorkflow
import TestSupport
import Testing

@Suite("Analytics view")
struct AnalyticsTests {
    static func square(_ id: String, cents: Int) -> String {
        let json = #"{"amount_money":{"amount":\#(cents),"currency_code":"USD"},"callback_url":"myshop://cb","client_id":"c","version":"1.3","state":"st-\#(id)","options":{"supported_tender_types":["CREDIT_CARD"]}}"#
        return "square-commerce-v1://payment/create?data=" + json.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    static func callback(_ json: String) -> String {
        "myshop://cb?data=" + json.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    @Test("counts, amounts, funnel, failure codes and percentiles of a hand-made day")
    func handMadeDay() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        var lines: [String] = []
        // Three online successes with callbacks after 10 s, 20 s and 30 s; one cancellation; one offline payment
        // reconciled 2 hours later; one request that never got further. All on 2026-11-21, USD.
        for (index, delay) in [10, 20, 30].enumerated() {
            let id = "ok-\(index)"
            lines.append(#"{"kind":"request","payment":"\#(id)","at":"2026-11-21T09:00:00Z","url":"\#(Self.square(id, cents: 1000))"}"#)
            lines.append(#"{"kind":"app_switch","payment":"\#(id)","at":"2026-11-21T09:00:01Z"}"#)
            let url = Self.callback(#"{"status":"ok","transaction_id":"T\#(index)","client_transaction_id":"C\#(index)","state":"st-\#(id)"}"#)
            lines.append(#"{"kind":"callback","at":"2026-11-21T09:00:\#(delay)Z","url":"\#(url)"}"#)
        }
        lines.append(#"{"kind":"request","payment":"cancel","at":"2026-11-21T10:00:00Z","url":"\#(Self.square("cancel", cents: 500))"}"#)
        lines.append(#"{"kind":"callback","at":"2026-11-21T10:00:05Z","url":"\#(Self.callback(#"{"status":"error","error_code":"payment_canceled","state":"st-cancel"}"#))"}"#)
        lines.append(#"{"kind":"request","payment":"off","at":"2026-11-21T11:00:00Z","url":"\#(Self.square("off", cents: 700))"}"#)
        lines.append(#"{"kind":"callback","at":"2026-11-21T11:00:10Z","url":"\#(Self.callback(#"{"status":"ok","client_transaction_id":"COFF","state":"st-off"}"#))"}"#)
        lines.append(#"{"kind":"reconcile","at":"2026-11-21T13:00:10Z","provider":"square","transaction_id":"TOFF","client_transaction_id":"COFF"}"#)
        lines.append(#"{"kind":"request","payment":"silent","at":"2026-11-21T12:00:00Z","url":"\#(Self.square("silent", cents: 300))"}"#)
        let report = await workflow.ingest(lines: lines)
        #expect(report.rejected == 0, "\(report.errors)")

        let cells = try Analytics.cells(in: workflow.store)
        #expect(cells.count == 1)
        let cell = try #require(cells.first)
        #expect(cell.key == AnalyticsCellKey(day: "2026-11-21", provider: "square", currency: "USD"))
        #expect(cell.requested == 6 && cell.requestedMinor == 3 * 1000 + 500 + 700 + 300)
        #expect(cell.switched == 3 && cell.calledBack == 5 && cell.succeeded == 4)
        #expect(cell.completed == 3 && cell.completedMinor == 3000)
        #expect(cell.offline == 1 && cell.offlineMinor == 700 && cell.reconciled == 1 && cell.reconciledMinor == 700)
        #expect(cell.failed == 1 && cell.failedMinor == 500 && cell.failureCodes == [FailureCode("payment_canceled"): 1])
        #expect(cell.requestToCallbackMs.totalCount == 5)
        #expect(cell.requestToCallbackMs.valuesAreEquivalent(cell.requestToCallbackMs.valueAtPercentile(50), 10_000))
        #expect(cell.requestToCallbackMs.valuesAreEquivalent(cell.requestToCallbackMs.max, 30_000))
        #expect(cell.offlineToReconcileS.valuesAreEquivalent(cell.offlineToReconcileS.valueAtPercentile(50), 7_200))
        // The cell keeps each latency, in payment id order (cancel 5 s, off 10 s, ok-0…2), not a histogram.
        #expect(cell.requestToCallbackMsValues == [5_000, 10_000, 10_000, 20_000, 30_000])
        #expect(cell.offlineToReconcileSValues == [7_200])

        let csv = Analytics.csv(cells).split(separator: "\n")
        #expect(csv.count == 2)
        #expect(csv[0].hasPrefix("day,provider,currency,requested,"))
        #expect(csv[1].hasPrefix("2026-11-21,square,USD,6,3,5,4,3,1,1,1,"))
        #expect(try Analytics.cells(in: workflow.store, from: "2026-11-22").isEmpty)
        #expect(Analytics.csv([]) == csv[0] + "\n", "an empty day is its header alone")
    }

    @Test("a payment's day and request-to-callback time come from its earliest observed request, in either recording order")
    func earliestRequest() async throws {
        let first = #"{"kind":"request","payment":"n1","at":"2026-11-21T23:59:50Z","url":"\#(Self.square("n1", cents: 1000))"}"#
        let retry = #"{"kind":"request","payment":"n1","at":"2026-11-22T00:00:01Z","url":"\#(Self.square("n1", cents: 1000))"}"#
        let callback = #"{"kind":"callback","at":"2026-11-22T00:00:11Z","url":"\#(Self.callback(#"{"status":"ok","transaction_id":"T1","client_transaction_id":"C1","state":"st-n1"}"#))"}"#
        for lines in [[first, retry, callback], [retry, first, callback]] {
            let cells = try await RecordedDay.with(lines) { workflow in try Analytics.cells(in: workflow.store) }
            #expect(cells.map(\.key.day) == ["2026-11-21"], "\(lines)")
            #expect(cells.first?.requestToCallbackMsValues == [21_000], "\(lines)")
        }
    }

    @Test("on a demo day the cells add up to what the log holds")
    func addsUpToTheLog() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        _ = await workflow.ingest(lines: try DemoDay(payments: 60, seed: 5).plan().lines)
        let cells = try Analytics.cells(in: workflow.store)
        var requestedStreams = Set<String>()
        var switchedStreams = Set<String>()
        try workflow.store.forEach { event in
            if event.type == "Requested" { requestedStreams.insert(event.streamID) }
            if event.type == "AppSwitched" { switchedStreams.insert(event.streamID) }
            return true
        }
        #expect(cells.map(\.requested).reduce(0, +) == requestedStreams.count)
        #expect(cells.map(\.switched).reduce(0, +) == switchedStreams.count)
        let statuses = try PaymentsProjection.payments(in: workflow.store)
        #expect(cells.map(\.failed).reduce(0, +) == statuses.filter { $0.status == .failed }.count)
        #expect(cells.map(\.reconciled).reduce(0, +) == statuses.filter { $0.status == .reconciled }.count)
    }

    @Test("amounts up to Int64.max minor units each are summed without overflow")
    func hugeAmounts() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let huge = Int64.max / 2 + 1
        let lines = (1...3).map { index in
            #"{"kind":"request","payment":"big-\#(index)","at":"2026-11-21T09:00:00Z","url":"\#(Self.square("big-\(index)", cents: Int(huge)))"}"#
        }
        let report = await workflow.ingest(lines: lines)
        #expect(report.accepted == 3, "\(report.errors)")
        let cell = try #require(try Analytics.cells(in: workflow.store).first)
        #expect(cell.requestedMinor == 3 * Int128(huge))
        #expect(cell.fields.first { $0.0 == "requested_minor" }?.1 == String(3 * Int128(huge)))
    }

    @Test("a CSV field holding CR LF, a lone CR, or a quote before a combining mark is quoted, its quotes doubled (RFC 4180)")
    func csvQuoting() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        var lines: [String] = []
        // "\r\n" is one Character, equal neither to "\r" nor to "\n"; a quote followed by U+0301 is one Character too.
        for (id, currency, code) in [("crlf", "EUR", "Declined%0D%0Aby%20bank"), ("cr", "SEK", "a%0Db%22%CC%81")] {
            let request = "izettle://x-callback-url/payment/1.0?x-source=shop&x-success=myshop%3A%2F%2Fcb&x-failure=myshop%3A%2F%2Fcb&api-key=K&price=5&currency=\(currency)&title=T&reference=ref-\(id)"
            lines.append(#"{"kind":"request","payment":"\#(id)","at":"2026-11-21T09:00:00Z","url":"\#(request)"}"#)
            lines.append(#"{"kind":"callback","payment":"\#(id)","at":"2026-11-21T09:00:30Z","url":"myshop://cb?reference=ref-\#(id)&errorCode=\#(code)"}"#)
        }
        let report = await workflow.ingest(lines: lines)
        #expect(report.rejected == 0, "\(report.errors)")
        let csv = Array(Analytics.csv(try Analytics.cells(in: workflow.store)).utf8)
        for field in ["\"Declined\r\nby bank:1\"", "\"a\rb\"\"\u{301}:1\""] {
            let bytes = Array(field.utf8)
            #expect((0...(csv.count - bytes.count)).contains { csv[$0..<($0 + bytes.count)].elementsEqual(bytes) },
                    "\(String(decoding: csv, as: UTF8.self).debugDescription) lacks \(field.debugDescription)")
        }
    }

    @Test("forEachPayment visits every payment once, in id order, as payments(in:) lists them")
    func forEachPaymentMatchesTheListing() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: dir.path), actor: "t")
        defer { workflow.store.close() }
        let report = await workflow.ingest(lines: try DemoDay(payments: 120, seed: 21).plan().lines)
        #expect(report.rejected == 0, "\(report.errors)")
        var visited: [String] = []
        try PaymentsProjection.forEachPayment(in: workflow.store) { visited.append($0.id) }
        let listed = try PaymentsProjection.payments(in: workflow.store).map(\.id)
        #expect(visited.count >= 120)
        #expect(visited == listed)
        #expect(visited == visited.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }
}
