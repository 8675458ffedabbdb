import Foundation
import LMDBKit
import PaylogDomain
import PaylogStore
import PaylogWorkflow

/// Builds a log of realistic payment events of any length for the read scenarios.
///
/// A seeded demo day (``PaylogWorkflow/DemoDay``: every provider, offline payments, duplicate and contradicting
/// callbacks, late successes, reconciliations) is first recorded through ``PaylogWorkflow/PaymentWorkflow``, so
/// its events are exactly what the workflow writes. The log is then made of relabelled copies of that day: copy
/// `c` gets its own payment ids, references and transaction ids (so the routing view grows like a real one), its
/// own event ids, and observed times shifted by `c` days. Each copy's events are appended wave by wave — every
/// payment's first event, then every payment's second, … — through the store's real append path with its inline
/// status view, so payments interleave in the log as they do in a day. The store is opened without fsync while
/// it is built (it is a fixture; the timed scenarios reopen it durably).
enum PaymentLogBuilder {
    /// Payments of the template day.
    static let templatePayments = ObservationDays.paymentsPerDay
    /// Copies appended together (their waves are submitted at once and share group commits).
    static let copiesPerRound = 4

    /// A template event: the recorded envelope and its decoded payload.
    private typealias TemplateEvent = (recorded: RecordedEvent, decoded: PaymentEvent)

    /// Builds a log of exactly `events` events in directory `path`, using `scratch` for the template day.
    static func build(events: Int, at path: String, scratch: String) async throws(BenchError) -> BuiltPaymentLog {
        let started = Stopwatch.now()
        let template = try await recordTemplate(at: scratch)
        var templateStreams: [BuiltPaymentLog.Stream] = []
        var versions: [String: UInt64] = [:]
        for event in template {
            if versions[event.recorded.streamID] == nil { templateStreams.append(.init(id: event.recorded.streamID, version: 0)) }
            versions[event.recorded.streamID] = event.recorded.version
        }
        templateStreams = templateStreams.map { .init(id: $0.id, version: versions[$0.id]!) }

        let store: EventStore
        do {
            store = try EventStore(
                path: path, options: EnvironmentOptions(noSync: true), projections: [PaymentsProjection()],
                payloadDictionary: PaymentPayloadDictionary.bytes)
        } catch {
            throw .store(step: "opening the payment log to build", error)
        }
        var appended = 0
        var payloadBytes = 0
        var copy = 0
        var partialStreams: [BuiltPaymentLog.Stream] = []
        do {
            while appended < events {
                // One round: up to `copiesPerRound` copies, the last one possibly cut short.
                var waves: [[(streamID: String, event: NewEvent)]] = []
                for _ in 0..<copiesPerRound where appended < events {
                    let take = min(template.count, events - appended)
                    var partial: [String: UInt64] = [:]
                    for (index, item) in template.prefix(take).enumerated() {
                        let version = Int(item.recorded.version)
                        while waves.count < version { waves.append([]) }
                        let relabelled = try relabel(item, copy: copy, index: index)
                        payloadBytes += relabelled.event.payload.count
                        waves[version - 1].append(relabelled)
                        if take < template.count { partial[relabelled.streamID] = item.recorded.version }
                    }
                    if take < template.count {
                        partialStreams = templateStreams.compactMap { stream in
                            let id = BuiltPaymentLog.streamID(stream.id, copy: copy)
                            return partial[id].map { BuiltPaymentLog.Stream(id: id, version: $0) }
                        }
                    } else {
                        copy += 1
                    }
                    appended += take
                }
                for wave in waves { try await appendConcurrently(wave, to: store) }
            }
        } catch {
            store.close()
            throw BenchError.wrapping(error, step: "building the payment log")
        }
        store.close()
        let used = try StoreFootprint.usedBytes(ofEnvironmentAt: path)
        return BuiltPaymentLog(
            path: path, events: events, templateStreams: templateStreams, wholeCopies: copy, partialStreams: partialStreams,
            payloadBytesPerEvent: Double(payloadBytes) / Double(events), bytesPerEvent: Double(used) / Double(events),
            buildSeconds: Stopwatch.seconds(from: started, to: Stopwatch.now()))
    }

    /// Records the template day through the workflow in `scratch` and returns its events in log order.
    private static func recordTemplate(at scratch: String) async throws(BenchError) -> [TemplateEvent] {
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let lines = try ObservationDays.lines(payments: templatePayments)
        let store: EventStore
        do {
            store = try EventStore(path: scratch, options: EnvironmentOptions(noSync: true), projections: [PaymentsProjection()])
        } catch {
            throw .store(step: "opening the template store", error)
        }
        defer { store.close() }
        let report = await PaymentWorkflow(store: store, actor: "bench").ingest(lines: lines)
        if report.rejected > 0 {
            throw .rejectedObservations(count: report.rejected, firstError: report.errors.first.map { "line \($0.line): \($0.message)" } ?? "")
        }
        var events: [TemplateEvent] = []
        do {
            try store.forEach { event in
                events.append((event, try EventCodec.decode(event)))
                return true
            }
        } catch {
            throw .wrapping(error, step: "reading the template day")
        }
        return events
    }

    /// Copy `copy` of a template event: its own payment id, routing keys, event id and observed day.
    private static func relabel(_ item: TemplateEvent, copy: Int, index: Int) throws -> (streamID: String, event: NewEvent) {
        let suffix = "-\(copy)"
        var event = item.decoded
        switch event {
        case .requested(var e):
            e.reference = e.reference.map { $0 + suffix }
            event = .requested(e)
        case .callbackReceived(var e):
            e.outcome.transactionID = e.outcome.transactionID.map { $0 + suffix }
            e.outcome.clientTransactionID = e.outcome.clientTransactionID.map { $0 + suffix }
            e.outcome.reference = e.outcome.reference.map { $0 + suffix }
            event = .callbackReceived(e)
        case .offline(var e):
            e.clientTransactionID += suffix
            event = .offline(e)
        case .reconciled(var e):
            e.transactionID += suffix
            event = .reconciled(e)
        case .appSwitched, .failed:
            break
        }
        let recorded = item.recorded
        let day: Int64 = 86_400_000_000
        let observedAt = recorded.observedAt.map { Timestamp(microseconds: $0.microseconds + Int64(copy) * day) }
        let newEvent = try EventCodec.encode(
            event, id: BenchEventID.make(UInt64(copy) + 1, UInt64(index)), observedAt: observedAt,
            correlationID: recorded.correlationID, causationID: recorded.causationID, actor: recorded.actor)
        return (BuiltPaymentLog.streamID(recorded.streamID, copy: copy), newEvent)
    }

    /// Appends each event on its own (one stream each), all submitted at once so that group commit batches them.
    private static func appendConcurrently(_ wave: [(streamID: String, event: NewEvent)], to store: EventStore) async throws(BenchError) {
        let failure: EventStoreError? = await withTaskGroup(of: EventStoreError?.self) { group in
            for item in wave {
                group.addTask {
                    do throws(EventStoreError) {
                        _ = try await store.append([item.event], to: item.streamID)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            var first: EventStoreError?
            for await outcome in group where first == nil { first = outcome }
            return first
        }
        if let failure { throw .store(step: "appending the payment log", failure) }
    }
}
