import Foundation
import PaylogDomain
import PaylogProviders
import PaylogStore
import PaylogWorkflow
import Testing
import TestSupport

/// ``PaymentWorkflow/record(_:ifPayment:satisfies:)`` and ``PaymentWorkflow/record(_:answering:from:ofPayment:)``: the
/// check and the record in one write, so that of callbacks racing for a payment that may take only one, exactly one is
/// recorded.
@Suite("Guarded record")
struct GuardedRecordTests {
    static let state = "0123456789abcdef0123456789abcdef"

    static func callback(_ transaction: String) -> Observation {
        let data = #"{"status":"ok","transaction_id":"\#(transaction)","client_transaction_id":"ctx-1","state":"\#(state)"}"#
        let url = "https://pos.example.test/v1/callbacks/square?data=" + data.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return .callback(payment: "p1", at: Timestamp(microseconds: 1_764_000_000_000_000), url: url, provider: .square)
    }

    static func workflowWithRequest(_ directory: TemporaryDirectory) async throws -> PaymentWorkflow {
        let workflow = PaymentWorkflow(store: try PaymentWorkflow.openStore(at: directory.path), actor: "t")
        let launch = try Providers.buildLaunchURL(for: LaunchSpec(
            provider: .square, paymentID: try PaymentID("p1"), amount: Money(minorUnits: 500, currency: try CurrencyCode("USD")),
            reference: state, callbackBaseURL: "https://pos.example.test/v1/callbacks/square", clientID: "sq0idp-TEST"))
        let report = await workflow.ingest(lines: [#"{"kind":"request","payment":"p1","at":"2025-11-24T16:00:00Z","url":"\#(launch)"}"#])
        #expect(report.accepted == 1, "\(report.errors)")
        return workflow
    }

    /// Runs `record(1)` … `record(20)` at once and returns their outcomes.
    static func race(_ record: @escaping @Sendable (Int) async throws -> RecordOutcome?) async throws -> [RecordOutcome?] {
        try await withThrowingTaskGroup(of: RecordOutcome?.self) { group in
            for index in 1...20 { group.addTask { try await record(index) } }
            return try await group.reduce(into: [RecordOutcome?]()) { $0.append($1) }
        }
    }

    @Test("twenty racing callbacks each guarded by 'no callback yet': exactly one is recorded")
    func racing() async throws {
        let directory = TemporaryDirectory("paylog-guarded")
        defer { directory.remove() }
        let workflow = try await Self.workflowWithRequest(directory)
        defer { workflow.store.close() }
        let outcomes = try await Self.race { index in
            try await workflow.record(Self.callback("tx-\(index)"), ifPayment: "p1") { $0.callbackFingerprints.isEmpty }
        }
        #expect(outcomes.compactMap { $0 }.count == 1)
        #expect(try workflow.store.lastPosition() == 2)
        #expect(try PaymentsProjection.payment("p1", in: workflow.store)?.callbackFingerprints.count == 1)
    }

    @Test("twenty racing callbacks answering one state: exactly one is recorded, and the state is then used")
    func racingAnswers() async throws {
        let directory = TemporaryDirectory("paylog-guarded")
        defer { directory.remove() }
        let workflow = try await Self.workflowWithRequest(directory)
        defer { workflow.store.close() }
        #expect(try workflow.awaitsCallback(echoing: Self.state, from: .square, payment: "p1"))
        let outcomes = try await Self.race { index in
            try await workflow.record(Self.callback("tx-\(index)"), answering: Self.state, from: .square, ofPayment: "p1")
        }
        #expect(outcomes.compactMap { $0 }.count == 1)
        #expect(try workflow.store.lastPosition() == 2)
        #expect(try !workflow.awaitsCallback(echoing: Self.state, from: .square, payment: "p1"))
        #expect(try !workflow.awaitsCallback(echoing: "another state", from: .square, payment: "p1"))
        #expect(try !workflow.awaitsCallback(echoing: Self.state, from: .sumup, payment: "p1"))
    }

    @Test("a condition that does not hold, or an unknown payment, appends nothing and returns nil")
    func refused() async throws {
        let directory = TemporaryDirectory("paylog-guarded")
        defer { directory.remove() }
        let workflow = try await Self.workflowWithRequest(directory)
        defer { workflow.store.close() }
        #expect(try await workflow.record(Self.callback("tx-1"), ifPayment: "p1") { _ in false } == nil)
        #expect(try await workflow.record(Self.callback("tx-1"), ifPayment: "nobody") { _ in true } == nil)
        #expect(try workflow.store.lastPosition() == 1)
        #expect(try await workflow.record(Self.callback("tx-1"), ifPayment: "p1") { _ in true }?.eventsAppended == 1)
    }
}
