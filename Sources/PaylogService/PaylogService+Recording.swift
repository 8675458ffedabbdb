import Dispatch
import Foundation
import Hummingbird
import PaylogDomain
import PaylogPresentation
import PaylogProviders
import PaylogStore
import PaylogWorkflow

extension PaylogService {
    /// `POST /v1/payments`: build a launch URL and record `Requested`, or record an observed launch URL.
    func createPayment(_ request: Request, _ context: PaylogRequestContext) async throws -> Response {
        try await post(request, context) { bytes, retryKey in
            let buildFields: Set<String> = [
                "provider", "amount", "currency", "callback_url", "client_id", "reference", "api_version", "title",
                "notes", "location_id", "skip_screen_success",
            ]
            let json = try JSONBody(bytes, allowed: buildFields.union(["payment", "url", "app_version", "at"]))
            let paymentID = try json.required("payment")
            do { _ = try PaymentID(paymentID) } catch { throw ServiceError.invalidField("payment", "is not a valid payment id: \(error)") }
            let at = try json.observedAt()
            if let url = try json.string("url") {
                // Any build field present, of whatever type: its type is not the problem, its presence is.
                if let extra = buildFields.sorted().first(where: { json.has($0) }) {
                    throw ServiceError.invalidField(extra, "cannot be combined with \"url\": send either an observed launch URL or the fields to build one")
                }
                let outcome = try await recordObservation(
                    .request(payment: paymentID, at: at, url: url, appVersion: try json.string("app_version")), endpoint: "payments",
                    retryKey: json.retryKey(retryKey))
                return try outcomeAnswer(outcome, created: true)
            }
            let spec = try launchSpec(json, paymentID: paymentID)
            let start = DispatchTime.now().uptimeNanoseconds
            let launch: LaunchOutcome
            do {
                launch = try await workflow.requestLaunch(spec, observedAt: at, retryKey: json.retryKey(retryKey))
            } catch let error as WorkflowError {
                throw failure(error)
            }
            metrics.append(endpoint: "payments", nanoseconds: DispatchTime.now().uptimeNanoseconds - start, events: launch.outcome.eventsAppended)
            countFindings(launch.outcome)
            var object = outcomeObject(launch.outcome)
            object["launch_url"] = launch.launchURL
            object["reference"] = launch.reference ?? NSNull()
            return try Answer(
                launch.outcome.eventsAppended > 0 ? .created : .ok, object, headers: ["Location": Self.paymentPath(paymentID)])
        }
    }

    /// `POST /v1/payments/{id}/app-switch`.
    func appSwitch(_ request: Request, _ context: PaylogRequestContext) async throws -> Response {
        try await post(request, context) { bytes, retryKey in
            let paymentID = try PaylogService.paymentParameter(context)
            let json = try JSONBody(bytes.isEmpty ? Array("{}".utf8) : bytes, allowed: ["at", "note"])
            let outcome = try await recordObservation(
                .appSwitch(payment: paymentID, at: try json.observedAt(), note: try json.string("note") ?? ""), endpoint: "app-switch",
                retryKey: json.retryKey(retryKey))
            return try outcomeAnswer(outcome)
        }
    }

    /// `POST /v1/payments/{id}/callbacks`: a callback URL exactly as received.
    func callback(_ request: Request, _ context: PaylogRequestContext) async throws -> Response {
        try await post(request, context) { bytes, retryKey in
            let paymentID = try PaylogService.paymentParameter(context)
            let json = try JSONBody(bytes, allowed: ["url", "provider", "at"])
            var provider: Provider?
            if let name = try json.string("provider") {
                guard let value = Provider(rawValue: name.lowercased()) else {
                    throw ServiceError.invalidField("provider", "must be square, sumup or izettle")
                }
                provider = value
            }
            let outcome = try await recordObservation(
                .callback(payment: paymentID, at: try json.observedAt(), url: try json.required("url"), provider: provider),
                endpoint: "callbacks", retryKey: json.retryKey(retryKey))
            return try outcomeAnswer(outcome)
        }
    }

    /// The most lines of a JSON Lines body recorded in one write session: enough that a body is recorded at tens of
    /// thousands of lines a second, few enough that an append from another request waits little behind the bodies
    /// being recorded (the writer commits the appends queued behind a session group before it runs the next one:
    /// 2–9 ms median and about 20–55 ms at worst behind one to four large uploads, Docs/performance.md).
    static let observationBatchLines = 1_024

    /// `POST /v1/observations` and `POST /v1/reconciliations`: JSON Lines with the same rules and report as
    /// `paylog ingest --json` / `paylog reconcile --json`, recorded as `paylog ingest` records a file: in batches of up
    /// to ``observationBatchLines`` lines, each in a write session. A till's body of a line or a few is one short
    /// session, and the sessions of tills sending at once share a durable commit (the writer groups the sessions
    /// queued together). The body (up to `max_stream_bytes`, without needing a `Content-Length`) is read whole before
    /// the first line is recorded: the log cannot take an event back, so a body refused for its size (413) or its
    /// slowness (408) must record nothing.
    func observations(_ request: Request, _ context: PaylogRequestContext, defaultKind: String?) async throws -> Response {
        let endpoint = defaultKind == nil ? "observations" : "reconciliations"
        return try await post(request, context, largeBody: true) { body, _ in
            let start = DispatchTime.now().uptimeNanoseconds
            let report = await recordInBatches(BufferLines(body), defaultKind: defaultKind)
            // Counted also when recording stopped part-way: the lines before the stop are durable.
            metrics.append(endpoint: endpoint, nanoseconds: DispatchTime.now().uptimeNanoseconds - start, events: report.eventsAppended)
            if let stopped = report.stoppedAtLine {
                logger.error("append failed", metadata: ["error": "\(report.storeError ?? "")"])
                throw ServiceError(
                    .serviceUnavailable, code: "storage_unavailable",
                    "The event log could not be written at line \(stopped); the \(report.accepted) lines accepted before it "
                        + "are recorded, nothing from line \(stopped) on is. Send the lines from \(stopped) on again later "
                        + "(lines already recorded append nothing); the operator can see the cause in the server log.")
            }
            guard report.lines > 0 else {
                throw ServiceError.invalidBody("The body holds no observations: send JSON Lines, one observation per line.")
            }
            return try Answer(.ok, encodable: report)
        }
    }

    /// Records a body as `paylog ingest` records a file, in batches of up to ``observationBatchLines`` lines, then
    /// counts the findings on what it appended: one audit per payment, not per line, and only on the versions this
    /// body appended (another request may have appended to the same payment meanwhile, and counted its own).
    func recordInBatches(_ lines: BufferLines, defaultKind: String?) async -> IngestReport {
        var appendedVersions: [String: [ClosedRange<UInt64>]] = [:]
        let report = await workflow.ingest(lines: lines, defaultKind: defaultKind, batchSize: Self.observationBatchLines) { appended in
            appendedVersions[appended.paymentID, default: []].append(appended.versions)
        }
        for (paymentID, versions) in appendedVersions { countFindings(of: paymentID, in: versions) }
        return report
    }

    /// Records one observation, timing the append and counting findings. `retryKey`: the request's, when it gives no
    /// `at` (see ``post(_:_:largeBody:_:)``).
    func recordObservation(_ observation: Observation, endpoint: String, retryKey: String? = nil) async throws -> RecordOutcome {
        let start = DispatchTime.now().uptimeNanoseconds
        let outcome: RecordOutcome
        do { outcome = try await workflow.record(observation, retryKey: retryKey) } catch { throw failure(error) }
        metrics.append(endpoint: endpoint, nanoseconds: DispatchTime.now().uptimeNanoseconds - start, events: outcome.eventsAppended)
        countFindings(outcome)
        return outcome
    }

    /// The HTTP error for a workflow failure; store failures are logged in full first.
    func failure(_ error: WorkflowError) -> ServiceError {
        if case .store = error { logger.error("append failed", metadata: ["error": "\(error)"]) }
        return error.serviceError
    }

    /// Counts the compatibility findings on the events just appended (metrics only; the log is not changed).
    func countFindings(_ outcome: RecordOutcome) {
        guard outcome.eventsAppended > 0 else { return }
        let last = outcome.payment.version
        countFindings(of: outcome.paymentID, in: [last - UInt64(outcome.eventsAppended) + 1...last])
    }

    /// Counts the compatibility findings on `paymentID`'s events at the stream versions in `versions`.
    func countFindings(of paymentID: String, in versions: [ClosedRange<UInt64>]) {
        guard let entries = try? PaymentAudit.entries(of: paymentID, in: store) else { return }
        for entry in entries where versions.contains(where: { $0.contains(entry.event.version) }) {
            for finding in entry.findings { metrics.finding(rule: finding.rule, severity: finding.severity.rawValue) }
        }
    }

    /// The payment's state plus what this request appended.
    func outcomeObject(_ outcome: RecordOutcome) -> [String: Any] {
        var object = PaymentJSON.object(outcome.payment)
        object["events_appended"] = outcome.eventsAppended
        object["already_recorded"] = outcome.wasAlreadyRecorded
        return object
    }

    /// 201 (`created`) when this request appended an event, else 200.
    func outcomeAnswer(_ outcome: RecordOutcome, created: Bool = false) throws -> Answer {
        let status: HTTPResponse.Status = created && outcome.eventsAppended > 0 ? .created : .ok
        return try Answer(status, outcomeObject(outcome), headers: ["Location": Self.paymentPath(outcome.paymentID)])
    }

    /// The launch spec a build-mode `POST /v1/payments` describes.
    func launchSpec(_ json: JSONBody, paymentID: String) throws -> LaunchSpec {
        guard let provider = Provider(rawValue: try json.required("provider").lowercased()) else {
            throw ServiceError.invalidField("provider", "must be square, sumup or izettle")
        }
        let currency: CurrencyCode
        do { currency = try CurrencyCode(try json.required("currency")) } catch let error as ServiceError { throw error } catch {
            throw ServiceError.invalidField("currency", "is not an ISO 4217 currency code")
        }
        let money: Money
        do { money = try Money(decimalString: try json.required("amount"), currency: currency) } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError.invalidField("amount", "must be a decimal amount like \"12.50\" with at most the currency's minor digits: \(error)")
        }
        let reference = try json.string("reference")
        if let reference, reference.isEmpty || reference.count > 128 {
            throw ServiceError.invalidField("reference", "must be 1–128 characters")
        }
        return LaunchSpec(
            provider: provider, paymentID: try PaymentID(paymentID), amount: money, reference: reference,
            callbackBaseURL: try json.required("callback_url"), clientID: try json.required("client_id"),
            title: try json.string("title"), notes: try json.string("notes"),
            squareAPIVersion: provider == .square ? (try json.string("api_version") ?? "1.3") : nil,
            appVersion: try json.string("app_version"), locationID: try json.string("location_id"),
            skipScreenSuccess: try json.bool("skip_screen_success") ?? false)
    }
}
