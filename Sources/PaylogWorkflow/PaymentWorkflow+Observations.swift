import Foundation
import PaylogDomain
import PaylogProviders
import PaylogStore

extension PaymentWorkflow {
    /// Routes and records one observation. Rejects only what cannot be understood or routed; a request or
    /// callback that breaks its provider's contract is recorded as observed (the replay checker judges it).
    public func record(_ observation: Observation) async throws(WorkflowError) -> RecordOutcome {
        switch observation {
        case .request(let payment, let at, let url, let appVersion):
            let request: LaunchRequest
            do { request = try Providers.parseLaunch(url, appVersion: appVersion) } catch { throw .unreadable(error.description) }
            return try await record(.request(request, builtByPaylog: false), payment: payment, observedAt: at, evidence: url)
        case .appSwitch(let payment, let at, let note):
            return try await record(.switchApp(note: note), payment: payment, observedAt: at, evidence: note)
        case .callback(let payment, let at, let url, let provider):
            let (paymentID, outcome) = try routeCallback(url, payment: payment, provider: provider)
            return try await record(.receiveCallback(outcome), payment: paymentID, observedAt: at, evidence: url)
        case .reconcile(let at, let line):
            let (paymentID, matchedBy) = try routeReport(line)
            return try await record(.reconcile(line, matchedBy: matchedBy), payment: paymentID, observedAt: at, evidence: line.rawLine)
        case .fail(let payment, let at, let reason):
            return try await record(.fail(reason: reason), payment: payment, observedAt: at, evidence: reason)
        }
    }

    /// Fails every offline payment whose reconciliation window closed before `now`. Returns the payments failed.
    public func expireOffline(now: Timestamp) async throws(WorkflowError) -> [String] {
        let offline: [Payment]
        do { offline = try PaymentsProjection.payments(in: store, status: .offline) } catch { throw .store(.storage(.closed)) }
        var expired: [String] = []
        for payment in offline {
            let outcome = try await record(
                .expire(nowMicroseconds: now.microseconds), payment: payment.id, observedAt: now, evidence: "expire")
            if outcome.eventsAppended > 0 { expired.append(payment.id) }
        }
        return expired
    }

    /// Finds the payment a callback belongs to and reads the callback with that payment's provider.
    func routeCallback(_ url: String, payment: String?, provider: Provider?) throws(WorkflowError) -> (String, CallbackOutcome) {
        var provider = provider
        if let payment, provider == nil { provider = (try? PaymentsProjection.payment(payment, in: store))??.provider }
        if provider == nil {
            do { provider = try Providers.detectCallbackProvider(url) } catch { throw .unreadable(error.description) }
        }
        if provider == nil, let marked = PaymentWorkflow.queryItem("paylog_payment", in: url) {
            provider = (try? PaymentsProjection.payment(marked, in: store))??.provider
        }
        guard let provider else {
            throw .unreadable("the callback \(url) carries neither Square data, SumUp smp- parameters nor a paylog_payment marker of a known payment; pass \"provider\" or \"payment\"")
        }
        let outcome: CallbackOutcome
        do { outcome = try Providers.parseCallback(url, provider: provider) } catch { throw .unreadable(error.description) }
        if let payment { return (payment, outcome) }
        var candidates: [String] = []
        switch outcome.routingHint {
        case .paymentID(let id)?: return (id.rawValue, outcome)
        case .reference(let reference)?: candidates.append("ref:\(reference)")
        case nil: break
        }
        if let reference = outcome.reference { candidates.append("ref:\(reference)") }
        for key in candidates {
            if let found = try? route(key) { return (found, outcome) }
        }
        throw .unroutable("the callback \(url) (no paylog_payment marker, and its reference \(outcome.reference.map { "\"\($0)\"" } ?? "is missing"))")
    }

    /// Finds the payment a report line belongs to and how it matched.
    func routeReport(_ line: ReconciliationLine) throws(WorkflowError) -> (String, String) {
        for key in line.matchKeys {
            let prefix = switch key.name {
            case "client_transaction_id": "ctx:"
            case "transaction_code": "tx:"
            default: "ref:"
            }
            if let found = try? route(prefix + key.value) { return (found, key.name) }
        }
        let keys = line.matchKeys.map { "\($0.name) \"\($0.value)\"" }.joined(separator: ", ")
        throw .unroutable("the \(line.provider.rawValue) report line with \(keys)")
    }

    /// The first value of query item `name` in `url`, from a real URL parser.
    static func queryItem(_ name: String, in url: String) -> String? {
        URLComponents(string: url)?.queryItems?.first { $0.name == name }?.value
    }

    /// Records every line of JSON Lines observations, in order; a bad line is reported and skipped.
    public func ingest(lines: some Sequence<String>, defaultKind: String? = nil) async -> IngestReport {
        var report = IngestReport()
        for (index, raw) in lines.enumerated() {
            await ingest(line: raw, number: index + 1, defaultKind: defaultKind, into: &report)
        }
        return report
    }

    /// Records one line of JSON Lines observations (line `number`, 1-based) and counts it in `report`: how
    /// `paylog ingest` and the HTTP `/v1/observations` stream share one set of rules. Blank lines are skipped.
    /// - Returns: the outcome when the line was accepted, nil when it was blank or rejected.
    @discardableResult
    public func ingest(
        line raw: String, number: Int, defaultKind: String? = nil, into report: inout IngestReport
    ) async -> RecordOutcome? {
        let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if line.isEmpty { return nil }
        report.lines += 1
        do {
            let observation = try Observation.parse(line, defaultKind: defaultKind)
            let outcome = try await record(observation)
            report.accepted += 1
            report.eventsAppended += outcome.eventsAppended
            return outcome
        } catch let error as ObservationError {
            report.rejected += 1
            report.errors.append(.init(line: number, message: error.description))
        } catch let error as WorkflowError {
            report.rejected += 1
            report.errors.append(.init(line: number, message: error.description))
        } catch {
            report.rejected += 1
            report.errors.append(.init(line: number, message: "\(error)"))
        }
        return nil
    }
}
